import { defineResource } from '../types';
import * as getAll from './getAll.operation';

export const segment = defineResource('segment', 'Segment', { getAll }, 'getAll');
