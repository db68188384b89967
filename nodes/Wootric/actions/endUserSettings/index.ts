import { defineResource } from '../types';
import * as get from './get.operation';
import * as update from './update.operation';

export const endUserSettings = defineResource(
	'endUserSettings',
	'End User Setting',
	{ get, update },
	'get',
);
