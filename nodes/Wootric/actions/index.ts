import type { INodeProperties } from 'n8n-workflow';

import { response } from './response';
import { segment } from './segment';
import type { WootricResource } from './types';

export const resources: Record<string, WootricResource> = { response, segment };

export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Response', value: 'response' },
		{ name: 'Segment', value: 'segment' },
	],
	default: 'response',
};

export const properties: INodeProperties[] = [resourceSelector, ...Object.values(resources).flatMap((resource) => resource.description)];
