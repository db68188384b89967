import { defineResource } from '../types';

export const decline = defineResource('decline', {}, '');
