import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { WootricContext } from './request';

/**
 * Checking every item's input before any item is sent. The router runs each item's operation once in
 * "check" mode: the operation reads and validates its parameters as usual, and its first request, instead
 * of going out, throws ReachedFirstRequest. So a bad item stops the run before anything was sent for the
 * good ones (which could otherwise be created, or surveyed, twice on the run that follows the fix).
 */
const checking = new WeakSet<object>();

/** Thrown in place of the first request of a check. A NodeOperationError, so wrapping hands it back as is. */
export class ReachedFirstRequest extends NodeOperationError {
	constructor(node: INode) {
		super(node, 'The input was checked; nothing was sent');
	}
}

export function isChecking(context: WootricContext): boolean {
	return checking.has(context);
}

/** Runs `operation` up to its first request, which is not sent. Resolves when the input is valid; rethrows its validation error. */
export async function checkInput(context: WootricContext, operation: () => Promise<unknown>): Promise<void> {
	checking.add(context);
	try {
		await operation();
	} catch (error) {
		// Validation errors are NodeOperationErrors already (wrapping hands them back); no request was sent.
		if (!(error instanceof ReachedFirstRequest)) throw new NodeOperationError(context.getNode(), error as Error);
	} finally {
		checking.delete(context);
	}
}
