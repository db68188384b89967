import { defineResource } from '../types';
import * as create from './create.operation';
import * as getAll from './getAll.operation';

export const response = defineResource('response', { create, getAll }, 'getAll');
