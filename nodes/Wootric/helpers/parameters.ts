import type { IExecuteFunctions, INodeExecutionData, NodeParameterValueType } from 'n8n-workflow';

/**
 * An item's parameter, as `getNodeParameter` gives it. n8n evaluates a parameter anew on every call, and
 * that dominates a run over many items (about 50 µs for `{{ $json.email }}`, most of it building the
 * expression's context). So:
 * - a value holding no expression is the same for every item: read once per run;
 * - a plain mapping of an input field (`{{ $json.email }}`, `{{ $json.contact["e-mail"] }}`, what dragging a
 *   field in gives) that holds a string is taken from the item itself: n8n would give that same string;
 * - anything else (another value type, any other expression) goes through n8n.
 */
export function itemParameter(context: IExecuteFunctions, name: string, itemIndex: number, fallback?: unknown): ParameterValue {
	let run = runs.get(context);
	if (!run) runs.set(context, (run = new Map()));
	let read = run.get(name);
	if (!read) run.set(name, (read = readingOf(context, name, itemIndex, fallback)));
	if (read.kind === 'same') return read.value;
	const mapped = read.field && fieldAt((read.input ??= context.getInputData())[itemIndex]?.json, read.field);
	return typeof mapped === 'string' ? mapped : context.getNodeParameter(name, itemIndex, fallback);
}

type ParameterValue = NodeParameterValueType | object;

/** How a parameter is read in this run: its raw value (the same for every item) tells. */
type Reading = { kind: 'same'; value: ParameterValue } | { kind: 'perItem'; field?: string[]; input?: INodeExecutionData[] };

const runs = new WeakMap<object, Map<string, Reading>>();

function readingOf(context: IExecuteFunctions, name: string, itemIndex: number, fallback: unknown): Reading {
	const raw = context.getNodeParameter(name, itemIndex, fallback, { rawExpressions: true });
	if (!holdsExpression(raw)) return { kind: 'same', value: context.getNodeParameter(name, itemIndex, fallback) };
	return { kind: 'perItem', field: typeof raw === 'string' ? mappedField(raw) : undefined };
}

/** Whether no parameter of the node but `except` (top-level names) holds an expression: then they read the same for every item. */
export function sameForEveryItem(context: IExecuteFunctions, except: string[]): boolean {
	return Object.entries(context.getNode().parameters).every(([name, value]) => except.includes(name) || !holdsExpression(value));
}

/** n8n marks an expression with a leading "=", at any depth of a collection. */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(holdsExpression);
	return false;
}

/** `={{ $json.a.b }}` or `={{ $json["a b"] }}`, nothing else around it. */
const JSON_MAPPING = /^=\{\{\s*\$json((?:\.[A-Za-z_$][\w$]*|\[\s*"[^"\\]*"\s*\]|\[\s*'[^'\\]*'\s*\])+)\s*\}\}$/;
const PATH_STEP = /\.([A-Za-z_$][\w$]*)|\[\s*"([^"\\]*)"\s*\]|\[\s*'([^'\\]*)'\s*\]/g;

/** The path of the field a plain `$json` mapping names; undefined when the expression is another. */
function mappedField(expression: string): string[] | undefined {
	const path = JSON_MAPPING.exec(expression)?.[1];
	return path === undefined ? undefined : [...path.matchAll(PATH_STEP)].map(([, dotted, doubleQuoted, singleQuoted]) => dotted ?? doubleQuoted ?? singleQuoted);
}

/** The value at `path` in an item's JSON, its own fields only; undefined where a step is missing. */
function fieldAt(json: unknown, path: string[]): unknown {
	let value = json;
	for (const field of path) {
		if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, field)) return undefined;
		value = (value as Record<string, unknown>)[field];
	}
	return value;
}
