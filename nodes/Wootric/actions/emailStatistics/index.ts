import { defineResource } from '../types';
import * as get from './get.operation';
import * as getSources from './getSources.operation';
import * as requestBounceReport from './requestBounceReport.operation';

export const emailStatistics = defineResource(
	'emailStatistics',
	'Email Statistics',
	{ get, getSources, requestBounceReport },
	'get',
);
