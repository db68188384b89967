import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { WootricSignInError } from '../../nodes/Wootric/transport/signIn';
import { describeFailure } from '../../nodes/Wootric/transport/failures';

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
