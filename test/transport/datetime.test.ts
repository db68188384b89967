import { parseSerializedProperties } from '../../nodes/Wootric/helpers/properties';
import { normalizeDatetimes } from '../../nodes/Wootric/helpers/records';
import { parseWootricDatetime, wootricSeconds } from '../../nodes/Wootric/transport/datetime';

describe('the service’s datetime forms', () => {
	it.each([
		['2016-12-16 09:05:00 -0800', '2016-12-16T17:05:00.000Z'],
		['2015-04-20 04:46:51-08:00', '2015-04-20T12:46:51.000Z'],
		['2014-12-01 18:36:59', '2014-12-01T18:36:59.000Z'],
		['2015-02-12T06:29:27.000-08:00', '2015-02-12T14:29:27.000Z'],
		['2015-04-20T04:55:58.741-08:00', '2015-04-20T12:55:58.741Z'],
		['2026-03-01 10:00:00 +0530', '2026-03-01T04:30:00.000Z'],
		// Rails in a UTC zone (ActiveSupport's to_s), Ruby's Time#inspect, and the other UTC spellings.
		['2026-11-25 12:00:00 UTC', '2026-11-25T12:00:00.000Z'],
		['2026-11-25 12:00:00.123456789 UTC', '2026-11-25T12:00:00.123Z'],
		['2026-11-25 12:00:00 GMT', '2026-11-25T12:00:00.000Z'],
		['2026-11-25T12:00:00Z', '2026-11-25T12:00:00.000Z'],
		['2026-11-25T12:00:00.5Z', '2026-11-25T12:00:00.500Z'],
		['2026-11-25 12:00:00 +00:00', '2026-11-25T12:00:00.000Z'],
		['2026-11-25 12:00:00 +0000', '2026-11-25T12:00:00.000Z'],
	])('%s is %s', (text, iso) => {
		expect(new Date(parseWootricDatetime(text)!).toISOString()).toBe(iso);
	});

	it('rejects what is not a datetime', () => {
		expect(parseWootricDatetime('yesterday')).toBeUndefined();
		for (const text of ['2026-11-25 12:00:00 PST', '2026-11-25 12:00', '2026-13-45 12:00:00 UTC'])
			expect(parseWootricDatetime(text)).toBeUndefined();
		expect(wootricSeconds(1700000000)).toBeUndefined();
	});

	it('counts whole seconds, as the created filters do', () => {
		expect(wootricSeconds('2015-04-20T04:55:58.741-08:00')).toBe(
			Date.UTC(2015, 3, 20, 12, 55, 58) / 1000,
		);
	});

	it('normalizes every datetime field at any depth and leaves the rest alone', () => {
		const record = {
			id: 7,
			created_at: '2016-12-16 09:05:00 -0800',
			external_created_at: 1418450219,
			last_surveyed: '2014-12-01 18:36:59',
			last_response: { id: '9', created_at: '2015-02-12T06:29:27.000-08:00' },
			text: '2016-12-16 09:05:00 -0800',
			last_seen_at: null,
		};
		expect(normalizeDatetimes(record)).toEqual({
			...record,
			created_at: '2016-12-16T17:05:00.000Z',
			last_surveyed: '2014-12-01T18:36:59.000Z',
			last_response: { id: '9', created_at: '2015-02-12T14:29:27.000Z' },
		});
	});
});

describe('serialized properties in end-user write bodies', () => {
	it.each([
		['{"plan":"pro","seats":"5"}', { plan: 'pro', seats: '5' }],
		['{"plan"=>"pro", "seats"=>"5"}', { plan: 'pro', seats: '5' }],
	])('%s is read back as a hash', (text, properties) => {
		expect(parseSerializedProperties({ id: 1, properties: text })).toEqual({ id: 1, properties });
	});

	it('leaves a hash, or an unreadable string, as it is', () => {
		expect(parseSerializedProperties({ properties: { a: '1' } })).toEqual({
			properties: { a: '1' },
		});
		expect(parseSerializedProperties({ properties: 'not a hash' })).toEqual({
			properties: 'not a hash',
		});
	});
});
