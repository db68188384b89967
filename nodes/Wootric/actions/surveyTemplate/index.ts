import { defineResource } from '../types';

export const surveyTemplate = defineResource('surveyTemplate', {}, '');
