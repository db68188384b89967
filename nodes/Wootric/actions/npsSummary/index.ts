import { defineResource } from '../types';

export const npsSummary = defineResource('npsSummary', {}, '');
