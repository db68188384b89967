import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * The error of a multi-request job that stopped part way (surveys in batches, CSV chunks): the
 * cause, plus what was sent and what was not, so nobody is surveyed twice when the job is resumed.
 */
export function stoppedPartWay(
	node: INode,
	error: unknown,
	stoppedAt: string,
	progress: string,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	const cause = error as {
		message?: string;
		description?: string | null;
		httpCode?: string | null;
	};
	const message = `${stoppedAt} failed: ${cause.message ?? String(error)}`;
	const description = [cause.description, progress].filter(Boolean).join(' ');
	if (error instanceof NodeApiError) {
		const httpCode = error.httpCode ?? undefined;
		return new NodeApiError(
			node,
			{ message, description, httpCode: httpCode ?? null } as JsonObject,
			{ message, description, httpCode, itemIndex },
		);
	}
	return new NodeOperationError(node, message, { description, itemIndex });
}

/** "1–3", or "4" for a single number. */
export const span = (from: number, to: number) => (from === to ? `${from}` : `${from}–${to}`);
