import { defineResource } from '../types';
import * as get from './get.operation';

export const npsSummary = defineResource('npsSummary', 'NPS Summary', { get }, 'get');
