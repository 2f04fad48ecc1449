import { CONTACT_FORM_ID } from '@portico/contracts/support-constants';
import type { SupportStaffMember } from '@portico/contracts/support';
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

export interface TicketSummary {
  nid: number;
  uuid: string;
  title: string;
  status: string;
  severity: string;
  environment: string;
  created: string;
  changed: string;
  reported_by: { uid: number; uuid: string; name: string; mail?: string };
}

export interface TicketMessage {
  uuid: string;
  uid: number | null;
  created: string;
  body: string;
  author: { uid: number | null; uuid: string | null; name: string; staff: boolean };
}

export interface Ticket extends TicketSummary {
  description: string;
  contact_info: string;
  details: string;
  messages: TicketMessage[];
  attachments?: Attachment[];
  viewer?: { staff: boolean };
}

export interface TicketInput {
  title: string;
  contact_info: string;
  description: string;
  environment: string;
  severity: string;
  details: string;
}

export const ticketKeys = {
  all: ['support-tickets'] as const,
  list: () => [...ticketKeys.all, 'list'] as const,
  one: (id: string) => [...ticketKeys.all, 'one', id] as const,
  queue: (filters: Record<string, string>, page: number) =>
    [...ticketKeys.all, 'queue', filters, page] as const,
  contactMessages: (page: number) => ['support-contact-messages', page] as const,
  me: ['support-me'] as const,
  staff: ['support-staff'] as const,
};

/** Spec B 7: GET /api/support_ticket?_format=json. */
export function fetchTickets(): Promise<TicketSummary[]> {
  return apiRequest('/api/support_ticket', { format: 'json', query: { _format: 'json' } });
}

export function fetchTicket(id: string): Promise<Ticket> {
  return apiRequest(`/api/support_ticket/${encodeURIComponent(id)}`, {
    format: 'json',
    query: { _format: 'json' },
  });
}

/** Spec B 5 and 7: the form values plus message (copied from details); the answer has nid[0].value. */
export async function createTicket(input: TicketInput, attachments: string[] = []): Promise<number> {
  const res = await apiRequest<{ nid: { value: number }[] }>('/api/support_ticket/create', {
    method: 'POST',
    format: 'json',
    body: { ...input, message: input.details, ...(attachments.length ? { attachments } : {}) },
  });
  return res.nid[0]!.value;
}

export function setTicketStatus(id: string, status: string): Promise<Ticket> {
  return apiRequest(`/api/support_ticket/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    format: 'json',
    body: { field_state: status },
  });
}

export function replyToTicket(id: string, message: string): Promise<Ticket> {
  return apiRequest(`/api/support_ticket/${encodeURIComponent(id)}/reply`, {
    method: 'POST',
    format: 'json',
    body: { message },
  });
}

export function fetchSupportMe(): Promise<{ staff: boolean }> {
  return apiRequest('/api/support/me', { format: 'json' });
}

export const QUEUE_PAGE_SIZE = 20;

export function fetchQueue(
  filters: Record<string, string>,
  page: number,
): Promise<{ data: TicketSummary[]; meta: { count: number } }> {
  return apiRequest('/admin-api/support/tickets', {
    format: 'json',
    query: { ...filters, 'page[limit]': QUEUE_PAGE_SIZE, 'page[offset]': page * QUEUE_PAGE_SIZE },
  });
}

export interface ContactMessageRow {
  uuid: string;
  name: string;
  mail: string;
  subject: string;
  message: string;
  created: string;
}

export function fetchContactMessages(
  page: number,
): Promise<{ data: ContactMessageRow[]; meta: { count: number } }> {
  return apiRequest('/admin-api/support/contact-messages', {
    format: 'json',
    query: { 'page[limit]': QUEUE_PAGE_SIZE, 'page[offset]': page * QUEUE_PAGE_SIZE },
  });
}

export interface Attachment {
  uuid: string;
  file_name: string;
  size: number;
  mime: string;
  url: string;
}

function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `file; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** A ticket attachment, uploaded before the ticket is created; its uuid goes into `attachments`. */
export async function uploadAttachment(file: File): Promise<string> {
  const res = await apiRequest<{ uuid: string }>('/api/support_ticket/file', {
    method: 'POST',
    rawBody: file,
    headers: {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': contentDisposition(file.name),
    },
  });
  return res.uuid;
}

/** The accounts listed as support staff (administrators only). */
export async function fetchStaff(): Promise<SupportStaffMember[]> {
  return (await apiRequest<{ data: SupportStaffMember[] }>('/admin-api/support/staff', { format: 'json' }))
    .data;
}

export async function addStaff(email: string): Promise<SupportStaffMember> {
  const res = await apiRequest<{ data: SupportStaffMember }>('/admin-api/support/staff', {
    method: 'POST',
    format: 'json',
    body: { email },
  });
  return res.data;
}

export async function removeStaff(uuid: string): Promise<void> {
  await apiRequest<undefined>(`/admin-api/support/staff/${encodeURIComponent(uuid)}`, {
    method: 'DELETE',
    format: 'json',
  });
}
