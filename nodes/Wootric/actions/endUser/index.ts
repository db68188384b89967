import { defineResource } from '../types';

export const endUser = defineResource('endUser', {}, '');
