import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodePropertyOptions,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { asTool } from '../helpers/fields';

/**
 * One item's requests, ready to send: resolves to the records for the output, one item each; API
 * errors are thrown.
 */
export type ItemRequests<
	Records extends IDataObject | IDataObject[] = IDataObject | IDataObject[],
> = () => Promise<Records>;

/**
 * One operation: its entry in the Operation dropdown, its fields, and what it sends for one input
 * item.
 */
export interface WootricOperation {
	/** `action` is short, as n8n's own: n8n names new nodes (and so their tools) after it. */
	option: Omit<INodePropertyOptions, 'value'>;
	/**
	 * What an AI agent reads of the operation as a tool: what it does and what it returns, starting
	 * with "<action> in Wootric" (toolDescriptionField).
	 */
	toolDescription: string;
	description: INodeProperties[];
	/**
	 * Reads and checks one item's input, sending nothing (validation errors are thrown), and returns
	 * its requests. The router prepares every item before it sends any.
	 */
	prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests | Promise<ItemRequests>;
	/**
	 * For operations that can act on all input items together (e.g. "Combine Items"): when this
	 * returns true, `executeAll` runs once instead of `prepare` per item, reads the items through
	 * `eachItem`, and pairs its output items itself.
	 */
	combinesItems?(this: IExecuteFunctions): boolean;
	executeAll?(this: IExecuteFunctions, eachItem: EachItem): Promise<INodeExecutionData[]>;
}

/**
 * Runs `read` for every input item, in order, and returns what each gave. An item that fails stops
 * the run with an error naming it, or with Continue On Fail is left out and gets its error as its
 * output.
 */
export type EachItem = <T>(read: (itemIndex: number) => T) => T[];

export interface WootricResource {
	/** Its name in the Resource dropdown. */
	name: string;
	/** The Operation dropdown followed by every operation's fields. */
	description: INodeProperties[];
	operations: Record<string, WootricOperation>;
}

/**
 * The tool's description, one field per operation, its default the operation's own. n8n's loader
 * adds its generic Tool Description pair to a tool only when the node has no `toolDescription`
 * parameter; that pair's "Set Automatically" gives just "<action> in Wootric", and n8n never sends
 * the operation's `description`. n8n (1.123, 2.40, 2.41) sends this parameter's value as the tool's
 * description, or the automatic one when it is empty. Switching the operation swaps the default in
 * the editor, and keeps a text the user wrote.
 */
function toolDescriptionField(text: string): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 3 },
		default: text,
		description:
			'What the AI agent reads to decide when to call this tool and what it gets back. Left empty, it reads only the operation, e.g. "Create a response in Wootric".',
		displayOptions: { show: asTool },
	};
}

/** A resource's Operation dropdown and fields, each operation's shown only when it is chosen. */
export function defineResource(
	resource: string,
	name: string,
	operations: Record<string, WootricOperation>,
	defaultOperation: string,
): WootricResource {
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: Object.entries(operations).map(
			([value, operation]) => ({ ...operation.option, value }) as INodePropertyOptions,
		),
		default: defaultOperation,
	};
	const fields = Object.entries(operations).flatMap(([value, operation]) =>
		updateDisplayOptions({ show: { resource: [resource], operation: [value] } }, [
			toolDescriptionField(operation.toolDescription),
			...operation.description,
		]),
	);
	return { name, operations, description: [selector, ...fields] };
}
