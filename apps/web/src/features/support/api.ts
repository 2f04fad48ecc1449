import { CONTACT_FORM_ID } from '@portico/contracts/support-constants';
import { apiRequest } from '../../lib/api-client';

export interface ContactMessage {
  name: string;
  mail: string;
  subject: string;
  message: string;
  /** The captcha payload; signed-in users with a verified address may leave it out. */
  altcha?: string;
}

/** Spec B 7: POST /contact_message?_format=json with contact form id feedback. */
export function sendContactMessage(message: ContactMessage): Promise<{ message: string }> {
  return apiRequest('/contact_message', {
    method: 'POST',
    format: 'json',
    query: { _format: 'json' },
    body: { contact_form: CONTACT_FORM_ID, ...message },
  });
}
