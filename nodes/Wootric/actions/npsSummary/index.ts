import { defineResource } from '../types';
import * as get from './get.operation';
import * as trend from './trend.operation';

export const npsSummary = defineResource('npsSummary', 'NPS Summary', { get, trend }, 'get');
