import { defineResource } from '../types';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export const decline = defineResource(
	'decline',
	'Decline',
	{ create, delete: del, get, getAll, update },
	'getAll',
);
