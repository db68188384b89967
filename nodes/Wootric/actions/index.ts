import type { INodeProperties } from 'n8n-workflow';

import { decline } from './decline';
import { emailStatistics } from './emailStatistics';
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
	emailStatistics,
	npsSummary,
	segment,
	surveyTemplate,
};

const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	// By name, as n8n lists options.
	options: Object.entries(resources)
		.map(([value, resource]) => ({ name: resource.name, value }))
		.sort((a, b) => a.name.localeCompare(b.name)),
	default: 'response',
};

export const properties: INodeProperties[] = [
	resourceSelector,
	...Object.values(resources).flatMap((resource) => resource.description),
];
