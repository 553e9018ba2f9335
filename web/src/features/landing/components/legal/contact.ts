/**
 * Where users reach support and privacy enquiries. The product has no public domain yet: the
 * address must be replaced with the real mailbox before launch (the .example domain cannot
 * receive mail, so it can never silently swallow a user's enquiry).
 */
export const SUPPORT_EMAIL = 'support@oddjobs.example';
