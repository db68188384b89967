import { deliveryMemory, forgetDeliveries } from '../../nodes/WootricWebhookTrigger/deliveryMemory';

/** The bound deliveryMemory.ts documents: events (and announced responses) per node, and nodes. */
const REMEMBERED = 10_000;
const NODES = 200;

/** What a webhook trigger node remembers of recent deliveries, and how much. */
describe('deliveryMemory', () => {
	let test = 0;
	/** A node key of its own for each test: the memories live in the module. */
	const nodeKey = (name: string) => `test-${++test}:${name}`;

	it('notes an event once: the first add is new, a repeat is not', () => {
		const { events, announced } = deliveryMemory(nodeKey('node'));

		expect([events.add('response:1:100'), events.add('response:1:100')]).toEqual([true, false]);
		expect([announced.add(1), announced.has(1), announced.has(2)]).toEqual([true, true, false]);
	});

	it(`keeps the last ${REMEMBERED} events of a node, forgetting the oldest`, () => {
		const { events } = deliveryMemory(nodeKey('node'));
		for (let id = 0; id <= REMEMBERED; id++) events.add(`response:${id}:0`);

		expect(events.has('response:0:0')).toBe(false);
		expect(events.has('response:1:0')).toBe(true);
		expect(events.has(`response:${REMEMBERED}:0`)).toBe(true);
	});

	it(`keeps the memories of the ${NODES} nodes used last, forgetting the least recently used`, () => {
		const [oldest, touched, ...others] = Array.from({ length: NODES + 1 }, (_, index) =>
			nodeKey(`node-${index}`),
		);
		deliveryMemory(oldest).events.add('decline:1:0');
		deliveryMemory(touched).events.add('decline:1:0');
		for (const key of others.slice(0, -1)) deliveryMemory(key);
		// Used again: now the most recent, so the next new node forgets the oldest instead.
		deliveryMemory(touched);
		deliveryMemory(others[others.length - 1]);

		expect(deliveryMemory(touched).events.has('decline:1:0')).toBe(true);
		expect(deliveryMemory(oldest).events.has('decline:1:0')).toBe(false);
	});

	it('forgetDeliveries starts a node afresh, and no other', () => {
		const [forgotten, kept] = [nodeKey('forgotten'), nodeKey('kept')];
		deliveryMemory(forgotten).events.add('response:1:0');
		deliveryMemory(kept).events.add('response:1:0');

		forgetDeliveries(forgotten);

		expect(deliveryMemory(forgotten).events.has('response:1:0')).toBe(false);
		expect(deliveryMemory(kept).events.has('response:1:0')).toBe(true);
	});
});
