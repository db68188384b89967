import { ApiError } from './errors';
import type { ApiCall, Route } from './http';

interface CompiledRoute<Call> {
	route: Route<Call>;
	regex: RegExp;
	names: string[];
}

/** Matches `METHOD /v1/end_users/:id` patterns in the order given (the first match wins). */
export class Router<Call = ApiCall> {
	private readonly compiled: CompiledRoute<Call>[];

	constructor(routes: Route<Call>[]) {
		this.compiled = routes.map((route) => {
			const names: string[] = [];
			const source = route.pattern.replace(/:(\w+)/g, (_, name: string) => {
				names.push(name);
				return '([^/]+)';
			});
			return { route, names, regex: new RegExp(`^${source}$`) };
		});
	}

	match(
		method: string,
		path: string,
	): { route: Route<Call>; pathParams: Record<string, string> } | undefined {
		for (const { route, regex, names } of this.compiled) {
			if (route.method !== method) continue;
			const found = regex.exec(path);
			if (!found) continue;
			const pathParams = Object.fromEntries(
				names.map((name, index) => [name, decodePathSegment(found[index + 1])]),
			);
			return { route, pathParams };
		}
		return undefined;
	}
}

/** Rails answers a path segment that is not valid percent-encoding with 400, not a server error. */
function decodePathSegment(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		throw new ApiError(
			400,
			'bad_request',
			`The path segment ${segment} is not valid percent-encoding`,
		);
	}
}

export const routeKey = (route: Pick<Route, 'method' | 'pattern'>) =>
	`${route.method} ${route.pattern}`;
