import { DEFAULT_CONSOLE_URL, parseCliArgs } from './cli-args';

describe('parseCliArgs', () => {
  it('reads apply with its flags', () => {
    expect(
      parseCliArgs(
        [
          'apply',
          '-f',
          'w.yaml',
          '--dry-run',
          '--resend-secrets',
          '--url',
          'https://c.example.com',
          '--token',
          't',
        ],
        {},
      ),
    ).toEqual({
      options: {
        file: 'w.yaml',
        dryRun: true,
        resendSecrets: true,
        url: 'https://c.example.com',
        token: 't',
      },
    });
  });

  it('takes the URL and token from the environment, flags first', () => {
    const env = {
      SWITCHYARD_CONSOLE_URL: 'http://console:8083',
      SWITCHYARD_TOKEN: 'named',
      ADMIN_TOKEN: 'admin',
    };
    expect(parseCliArgs(['apply', '-f', 'w.yaml'], env)).toMatchObject({
      options: { url: 'http://console:8083', token: 'named', dryRun: false },
    });
    expect(parseCliArgs(['apply', '-f', 'w.yaml'], { ADMIN_TOKEN: 'admin' })).toMatchObject({
      options: { url: DEFAULT_CONSOLE_URL, token: 'admin' },
    });
    expect(parseCliArgs(['apply', '-f', 'w.yaml', '--token', 'flag'], env)).toMatchObject({
      options: { token: 'flag' },
    });
  });

  it.each([
    [[], /expected the command "apply"/],
    [['plan', '-f', 'w.yaml'], /expected the command "apply", got "plan"/],
    [['apply'], /apply needs -f/],
    [['apply', '-f', 'w.yaml', '--force'], /--force/],
    [['apply', '-f', 'w.yaml', '--url', 'console:8083'], /--url must be an http or https URL/],
  ])('refuses %j', (argv, reason) => {
    const parsed = parseCliArgs(argv, { ADMIN_TOKEN: 't' });
    expect('usageError' in parsed && parsed.usageError).toMatch(reason);
  });

  it('refuses to run without a token', () => {
    expect(parseCliArgs(['apply', '-f', 'w.yaml'], {})).toEqual({
      usageError: 'no token: pass --token, or set SWITCHYARD_TOKEN or ADMIN_TOKEN',
    });
  });

  it('answers help', () => {
    expect(parseCliArgs(['--help'], {})).toEqual({ help: true });
  });
});
