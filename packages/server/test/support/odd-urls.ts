/**
 * Spellings the WHATWG URL parser would still read as an https URL (or nearly), which the API refuses
 * wherever it takes a URL; the contract's media-url tests give the decision and reason for each.
 */
export const ODD_URLS = [
  'https:example.com/a.jpg',
  'https:/example.com/a.jpg',
  'https:///example.com/a.jpg',
  'https://',
  'https://user:pass@example.com/a.jpg',
  'https:\\\\example.com\\a.jpg',
  ' https://example.com/a.jpg',
  'https://example.com/a b.jpg',
  'https://example.com:0/a.jpg',
] as const;
