import { formatDatetime } from '../datetime';
import { ok, route, type Route } from '../http';

export const segmentRoutes: Route[] = [
	route('GET', '/v1/segments', ({ account }) =>
		ok(
			account.segments.map((segment) => ({
				name: segment.name,
				data_type: segment.dataType,
				created_at: formatDatetime(segment.createdAt, account, 'spaceOffset'),
			})),
		),
	),
];
