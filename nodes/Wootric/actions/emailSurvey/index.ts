import { defineResource } from '../types';
import * as send from './send.operation';
import * as sendCsv from './sendCsv.operation';

export const emailSurvey = defineResource('emailSurvey', 'Email Survey', { send, sendCsv }, 'send');
