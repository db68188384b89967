import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { itemFields, type EventRule, type ItemFields } from '../events';
import { readEventRule } from '../events/responseFilter';
import { surveyScaleOf } from '../helpers/surveyTypes';
import { integerValue, unixSeconds } from '../helpers/validation';

/** Events, Filters and Treat as Complete After (EventRule), and what only this trigger has. */
export interface TriggerSettings extends EventRule {
	includeEndUser: boolean;
	/** What of its record each item holds: Simplify, by the node's version. */
	fields: ItemFields;
	startFrom?: number;
	lookbackSeconds: number;
	/** Wait Until Complete: a new response without a comment is held for newForSeconds at most. */
	waitUntilComplete: boolean;
}

export async function readSettings(context: IPollFunctions): Promise<TriggerSettings> {
	const scale = await surveyScaleOf(context);
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return {
		...readEventRule(context, scale),
		includeEndUser: options.includeEndUser === true,
		fields: itemFields(context.getNode(), options.simplify === true, scale),
		startFrom: options.startFrom
			? unixSeconds(context, undefined, 'Start From', options.startFrom)
			: undefined,
		lookbackSeconds:
			integerValue(context, undefined, 'Lookback (Minutes)', options.lookbackMinutes ?? 0, {
				min: 0,
				max: 7 * 24 * 60,
			}) * 60,
		waitUntilComplete: options.waitUntilComplete === true,
	};
}
