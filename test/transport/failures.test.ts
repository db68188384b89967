import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { WootricSignInError } from '../../nodes/Wootric/transport/signIn';
import {
	declaredFailure,
	describeFailure,
	type RequestFailure,
} from '../../nodes/Wootric/transport/failures';

const node: INode = {
	id: '1',
	name: 'Wootric',
	type: 'n8n-nodes-wootric.wootric',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** What n8n's HTTP helper throws for an answer: an AxiosError-shaped error holding the response. */
function httpError(status: number, data: unknown, headers: Record<string, string> = {}): Error {
	class AxiosError extends Error {
		constructor(
			readonly response: { status: number; data: unknown; headers: Record<string, string> },
		) {
			super(`Request failed with status code ${response.status}`);
		}
	}
	return new AxiosError({ status, data, headers });
}

/** How n8n 2.x hands it to the node: wrapped in a NodeApiError whose cause is the original. */
const wrappedBy2x = (error: Error) => new NodeApiError(node, error as never);

/**
 * n8n 1.x wraps it the same way, but its ExecutionBaseError declares `cause` as a field, which
 * wipes it.
 */
function wrappedBy1x(error: Error): NodeApiError {
	const wrapped = new NodeApiError(node, error as never);
	Object.defineProperty(wrapped, 'cause', { value: undefined });
	return wrapped;
}

describe('describeFailure: what a failed request was, from what n8n threw', () => {
	it.each([
		['2.x', wrappedBy2x],
		['1.x', wrappedBy1x],
	])(
		"reads a refused sign-in as the sign-in's message, not as a network error (n8n %s)",
		(_version, wrap) => {
			const failure = describeFailure(
				wrap(
					new WootricSignInError(
						'Wootric refused the sign-in (400: wrong email or password).',
						400,
					),
				),
			);

			expect(failure).toEqual({
				status: 400,
				headers: {},
				apiMessages: [],
				signIn: 'Wootric refused the sign-in (400: wrong email or password).',
			});
		},
	);

	it.each([
		['2.x', wrappedBy2x],
		['1.x', wrappedBy1x],
	])("reads the status and the API's messages of an answer (n8n %s)", (_version, wrap) => {
		const failure = describeFailure(
			wrap(httpError(400, { type: 'error_list', errors: [{ message: 'email is invalid' }] })),
		);

		expect(failure).toMatchObject({ status: 400, apiMessages: ['email is invalid'] });
		expect(failure.code).toBeUndefined();
	});

	it('reads the rate-limit headers where n8n keeps them (2.x); 1.x keeps none, so the default wait applies', () => {
		const answer = () =>
			httpError(
				429,
				{ type: 'error_list', errors: [{ message: 'Rate limit exceeded' }] },
				{ 'X-Rate-Limit-Reset': '1800000000' },
			);

		expect(describeFailure(wrappedBy2x(answer())).headers).toEqual({
			'x-rate-limit-reset': '1800000000',
		});
		expect(describeFailure(wrappedBy1x(answer()))).toMatchObject({
			status: 429,
			headers: {},
			apiMessages: ['Rate limit exceeded'],
		});
	});

	it('reads a connection that failed as a network problem with its code', () => {
		const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
			code: 'ECONNREFUSED',
		});

		expect(describeFailure(wrappedBy2x(refused))).toEqual({
			status: undefined,
			headers: {},
			apiMessages: [],
			code: 'ECONNREFUSED',
		});
	});
});

describe('declaredFailure: why a request failed, as n8n reads it', () => {
	const now = Date.UTC(2026, 10, 27, 12, 0, 0);
	const failure = (fields: Partial<RequestFailure>): RequestFailure => ({
		headers: {},
		apiMessages: [],
		...fields,
	});

	it.each([
		['no answer', failure({ code: 'ECONNRESET' }), { cause: 'temporarily-unavailable' }],
		['a 502', failure({ status: 502 }), { cause: 'temporarily-unavailable' }],
		[
			'a 408 (a proxy that gave up waiting)',
			failure({ status: 408 }),
			{ cause: 'temporarily-unavailable' },
		],
		[
			'a 302 (a redirect, not followed)',
			failure({ status: 302, headers: { location: 'https://elsewhere.example/x' } }),
			{ cause: 'configuration-invalid' },
		],
		['a 429 without its reset (n8n 1.x)', failure({ status: 429 }), { cause: 'rate-limited' }],
		['a 401', failure({ status: 401 }), { cause: 'credential-invalid' }],
		['a 404', failure({ status: 404 }), { cause: 'configuration-invalid' }],
		['a 422', failure({ status: 422 }), { cause: 'configuration-invalid' }],
		[
			'a sign-in refused (400)',
			failure({ status: 400, signIn: 'Wootric refused the sign-in' }),
			{ cause: 'credential-invalid' },
		],
		[
			'a sign-in that got no answer',
			failure({ signIn: 'Could not reach Wootric to sign in' }),
			{ cause: 'temporarily-unavailable' },
		],
		[
			'a sign-in rate-limited',
			failure({ status: 429, signIn: 'Wootric limited sign-ins' }),
			{ cause: 'rate-limited' },
		],
	])('%s', (_, given, declared) => {
		expect(declaredFailure(given, now)).toEqual(declared);
	});

	it("a 429's reset, the service's UNIX second, on this machine's clock by the answer's Date", () => {
		const answeredAt = now / 1000 - 30;
		const limited = failure({
			status: 429,
			headers: {
				'x-rate-limit-reset': String(answeredAt + 45),
				date: new Date(answeredAt * 1000).toUTCString(),
			},
		});

		expect(declaredFailure(limited, now)).toEqual({
			cause: 'rate-limited',
			resetsAtEpochMs: now + 45_000 + 250,
		});
	});
});
