import { defineResource } from '../types';
import * as getAll from './getAll.operation';

export const surveyTemplate = defineResource(
	'surveyTemplate',
	'Survey Template',
	{ getAll },
	'getAll',
);
