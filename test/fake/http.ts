import type { IncomingHttpHeaders } from 'node:http';

import type { ParamObject } from './brackets';
import type { TieOrder } from './listing';
import type { Account, FakeStore } from './store';

export interface UploadedFile {
	field: string;
	filename: string;
	contentType: string;
	content: string;
}

/** A request as received, kept in the log for tests to assert on. */
export interface FakeRequest {
	method: string;
	path: string;
	/** The query string exactly as sent, without '?'. */
	rawQuery: string;
	/** The body exactly as sent (UTF-8). */
	rawBody: string;
	headers: IncomingHttpHeaders;
	query: ParamObject;
	/** Form fields of the body, url-encoded or multipart, parsed with bracket notation. */
	body: ParamObject;
	/** Query and body together, as the service sees its parameters. */
	params: ParamObject;
	files: UploadedFile[];
	/** `METHOD /pattern` of the route that served it, when one did. */
	route?: string;
	status?: number;
}

export interface Reply {
	status: number;
	/** Undefined sends no body at all (204). */
	body?: unknown;
}

export interface ApiCall {
	request: FakeRequest;
	pathParams: Record<string, string>;
	account: Account;
	store: FakeStore;
	/** How lists order records that share their sort value. */
	tieOrder: TieOrder;
	/** Whether response and decline lists take `updated` and sort_key (see FakeWootric). */
	updatedIndex: boolean;
}

/** Answers one call: an API call, or (fake-admin.ts) one of the fake's own. */
export type Handler<Call = ApiCall> = (call: Call) => Reply | Promise<Reply>;

export interface Route<Call = ApiCall> {
	method: string;
	pattern: string;
	handler: Handler<Call>;
}

export const route = <Call = ApiCall>(
	method: string,
	pattern: string,
	handler: Handler<Call>,
): Route<Call> => ({ method, pattern, handler });

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });
