/**
 * The operations the mock answers 501 whatever is sent, each with why; a test that needs one runs against a
 * reference server. Other operations refuse, also with a 501, the uses they do not model (a photo from a
 * `sourceUrl`, a message with `send: true`, a list filter such as an appointment's `from`): see
 * `PARTLY_IMPLEMENTED`. The README's table is this list (test/unimplemented.test.ts prints it).
 */
export const UNIMPLEMENTED_OPERATIONS: Readonly<Record<string, string>> = {
  downloadMedia: 'the mock keeps no image bytes',
  createAppointment: 'event type and session resolution',
  updateAppointment: 'event type and session resolution',
  cancelAppointment: 'appointments are not modelled',
  sendCommunicationMessage: 'no delivery providers',
  createCampaignSend: 'audience resolution and delivery',
  listCampaignAudienceMembers: 'audience filters are not evaluated',
  createCampaignAudience: 'audience filters are not checked',
  updateCampaignAudience: 'audience filters are not checked',
  createCampaignContentStep: 'step ordering and template copies',
  updateCampaignContentStep: 'sent steps are not tracked',
  createTemplate: 'template variables are not extracted',
  updateTemplate: 'template variables are not extracted',
  getMarketingCalendar: 'the calendar is not assembled',
  createFormSubmission: 'answers are not checked against the form, no customer is linked',
  createMarketingAsset: 'the mock keeps no image bytes',
  createSocialEventInvite: 'invitee rules are not modelled',
  createSocialEventRsvp: 'RSVP rules are not modelled',
  updateSocialEventRsvp: 'RSVP rules are not modelled',
  publishSocialPost: 'no social networks',
  createSocialPost: 'network and scheduling rules are not modelled',
  updateSocialPost: 'network and scheduling rules are not modelled',
  createWebhook: 'the mock delivers no webhooks; test a receiver with webhooks.sign from @vsf/sdk',
  updateWebhook: 'the mock delivers no webhooks',
  deleteWebhook: 'the mock delivers no webhooks',
  listWebhooks: 'the mock delivers no webhooks',
  getWebhook: 'the mock delivers no webhooks',
  listWebhookDeliveries: 'the mock delivers no webhooks',
};

/** Uses of implemented operations that still answer 501 (see `notImplemented` calls in the rules). */
export const PARTLY_IMPLEMENTED: Readonly<Record<string, string>> = {
  createCarPhoto: 'from a `sourceUrl` (send `base64`); with the `sessionId` of a (seeded) appointment',
  createAssetFolder: 'with a `parentId` (folders in folders)',
  updateAssetFolder: 'with a `parentId` (folders in folders)',
  createCommunicationMessage: 'with `send: true`; `mediaUrls` naming team media',
  '*': 'a list filter that is not a field of the record (`from`/`to` of social events and posts)',
};
