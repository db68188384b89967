import { defineResource } from '../types';
import * as create from './create.operation';
import * as deleteOperation from './delete.operation';
import * as exportData from './exportData.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';
import * as upsert from './upsert.operation';

// In the order of their names in the Operation dropdown.
export const endUser = defineResource(
	'endUser',
	'End User',
	{ create, upsert, delete: deleteOperation, exportData, get, getAll, update },
	'get',
);
