import type { INodeProperties } from 'n8n-workflow';

import { decline } from './decline';
import { emailSurvey } from './emailSurvey';
import { endUser } from './endUser';
import { endUserSettings } from './endUserSettings';
import { npsSummary } from './npsSummary';
import { response } from './response';
import { segment } from './segment';
import { surveyTemplate } from './surveyTemplate';
import type { WootricResource } from './types';

export const resources: Record<string, WootricResource> = {
	endUser,
	endUserSettings,
	response,
	decline,
	emailSurvey,
	npsSummary,
	segment,
	surveyTemplate,
};

const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Decline', value: 'decline' },
		{ name: 'Email Survey', value: 'emailSurvey' },
		{ name: 'End User', value: 'endUser' },
		{ name: 'End User Setting', value: 'endUserSettings' },
		{ name: 'NPS Summary', value: 'npsSummary' },
		{ name: 'Response', value: 'response' },
		{ name: 'Segment', value: 'segment' },
		{ name: 'Survey Template', value: 'surveyTemplate' },
	],
	default: 'response',
};

export const properties: INodeProperties[] = [resourceSelector, ...Object.values(resources).flatMap((resource) => resource.description)];
