import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { endUserFields, readEndUserId } from '../../helpers/endUsers';
import { simplifyOptionsCollections, updateFieldsCollection } from '../../helpers/fields';
import { recordOutput } from '../../helpers/output';
import { booleanValue, invalid } from '../../helpers/validation';
import { wootricRequest, type ParamHash } from '../../transport';
import type { ItemRequests } from '../types';

export const option = {
	name: 'Update',
	action: "Update an end user's settings",
	description: "Turn an end user's email, web or mobile surveys on or off",
};

export const toolDescription =
	"Update an end user's settings in Wootric: turn email, web or mobile surveys on or off for a survey taker. Returns the settings as updated.";

/** The flags in the order they are sent: parameter name, its label, the API's name. */
const FLAGS: Array<[name: string, label: string, flag: string]> = [
	['emailSurveys', 'Email Surveys', 'email_nps'],
	['mobileSurveys', 'Mobile Surveys', 'mobile_nps'],
	['webSurveys', 'Web Surveys', 'web_nps'],
	['forceWebSurvey', 'Force Web Survey', 'force_web_survey'],
	['forceMobileSurvey', 'Force Mobile Survey', 'force_mobile_survey'],
];

export const description: INodeProperties[] = [
	...endUserFields(['id'], 'The end user whose survey settings to change'),
	updateFieldsCollection(
		[
			{
				displayName: 'Email Surveys',
				name: 'emailSurveys',
				type: 'boolean',
				default: false,
				description: 'Whether the end user may get surveys by email',
			},
			{
				displayName: 'Force Mobile Survey',
				name: 'forceMobileSurvey',
				type: 'boolean',
				default: false,
				description:
					'Whether to skip sampling and make the end user available for a mobile SDK survey right away',
			},
			{
				displayName: 'Force Web Survey',
				name: 'forceWebSurvey',
				type: 'boolean',
				default: false,
				description:
					'Whether to skip sampling and make the end user available for a web SDK survey right away',
			},
			{
				displayName: 'Mobile Surveys',
				name: 'mobileSurveys',
				type: 'boolean',
				default: false,
				description: 'Whether the end user may get surveys in your mobile app (mobile SDK)',
			},
			{
				displayName: 'Web Surveys',
				name: 'webSurveys',
				type: 'boolean',
				default: false,
				description: 'Whether the end user may get surveys on your website (web SDK)',
			},
		],
		'Add Setting',
	),
	// Simplify only before 1.3, where it added: the settings' five fields have none to leave out.
	...simplifyOptionsCollections(),
];

/**
 * PUT /v1/end_users/<id>/settings with the flags chosen (true or false); none chosen is an error.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): ItemRequests<IDataObject> {
	const endUserId = readEndUserId(this, itemIndex);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const form: ParamHash = {};
	for (const [name, label, flag] of FLAGS) {
		if (fields[name] !== undefined) form[flag] = booleanValue(this, itemIndex, label, fields[name]);
	}
	if (Object.keys(form).length === 0)
		throw invalid(
			this,
			itemIndex,
			'Update Fields',
			'must choose at least one setting to change',
			fields,
		);
	return async () => {
		const settings = await wootricRequest<IDataObject>(this, {
			method: 'PUT',
			answer: 'record',
			path: `/v1/end_users/${endUserId}/settings`,
			form,
			subject: `end user ${endUserId}`,
			itemIndex,
		});
		return recordOutput(this, itemIndex, settings ?? {});
	};
}
