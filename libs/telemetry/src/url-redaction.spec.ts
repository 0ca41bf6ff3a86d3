import { redactUrlForSpans } from './url-redaction';

describe('redactUrlForSpans', () => {
  it.each([
    [
      'https://hooks.example.com/in?token=abc&v=2',
      'https://hooks.example.com/in?token=REDACTED&v=REDACTED',
      'token=REDACTED&v=REDACTED',
    ],
    ['https://user:pass@hooks.example.com/in', 'https://REDACTED:REDACTED@hooks.example.com/in', ''],
    ['http://127.0.0.1:9000/a?key=1&key=2', 'http://127.0.0.1:9000/a?key=REDACTED', 'key=REDACTED'],
    ['https://hooks.example.com/plain', 'https://hooks.example.com/plain', ''],
  ])('%s → %s', (url, full, query) => {
    expect(redactUrlForSpans(new URL(url))).toEqual({ full, query });
  });
});
