import { defineResource } from '../types';

export const endUserSettings = defineResource('endUserSettings', {}, '');
