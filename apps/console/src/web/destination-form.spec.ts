import {
  destinationBody,
  destinationFormOf,
  emptyDestinationForm,
  field,
  readDestinationForm,
} from './destination-form';

/** A posted form: every control the page renders, empty unless given. */
function posted(values: Record<string, string>): Record<string, string> {
  return { [field.id]: '', [field.name]: '', [field.sharedSecret]: '', ...values };
}

describe('the destination form', () => {
  it('turns URL and header rows into webhooks in order, leaving empty rows out', () => {
    const form = readDestinationForm(
      posted({
        [field.id]: ' hooks ',
        [field.source('web')]: 'on',
        [field.source('ios')]: 'on',
        [field.url(1)]: ' https://a.example/hook ',
        [field.headerName(1, 2)]: 'Authorization',
        [field.headerValue(1, 2)]: 'Bearer t0k3n',
        [field.url(3)]: 'https://b.example/hook',
        [field.enabled]: 'on',
      }),
      ['web', 'app'],
    );
    expect(destinationBody(form)).toEqual({
      body: {
        id: 'hooks',
        type: 'Webhooks',
        enabled: true,
        sources: ['web'],
        settings: {
          webhooks: [
            { url: 'https://a.example/hook', headers: { Authorization: 'Bearer t0k3n' } },
            { url: 'https://b.example/hook' },
          ],
        },
      },
      problems: [],
    });
  });

  it('reads an unticked enabled switch as off and a name as the integrations key', () => {
    const form = readDestinationForm(
      posted({ [field.name]: 'Audit Hooks', [field.url(0)]: 'https://a.example' }),
      [],
    );
    expect(destinationBody(form).body).toMatchObject({ name: 'Audit Hooks', enabled: false, sources: [] });
  });

  it('names the row of a header value without a name, and of headers without a URL', () => {
    const form = readDestinationForm(
      posted({
        [field.url(0)]: 'https://a.example',
        [field.headerValue(0, 1)]: 'orphan',
        [field.headerName(2, 0)]: 'X-Team',
        [field.headerValue(2, 0)]: 'growth',
      }),
      [],
    );
    expect(destinationBody(form).problems).toEqual([
      'URL 1, header 2: a header value needs a name',
      'URL 3: headers need a URL',
    ]);
  });

  it('sends a typed shared secret, else the stored one’s mask (keep it), else nothing when asked to remove it', () => {
    const base = {
      ...emptyDestinationForm(),
      urls: readDestinationForm(posted({ [field.url(0)]: 'https://a.example' }), []).urls,
    };
    const secretOf = (form: typeof base, mask?: string) =>
      (destinationBody(form, mask).body.settings as { sharedSecret?: string }).sharedSecret;
    expect(secretOf({ ...base, sharedSecret: 'new-secret-value' }, '••••abcd')).toBe('new-secret-value');
    expect(secretOf(base, '••••abcd')).toBe('••••abcd');
    expect(secretOf({ ...base, clearSharedSecret: true }, '••••abcd')).toBeUndefined();
    expect(secretOf(base)).toBeUndefined();
  });

  it('opens a destination as the API answers it, and posting it unchanged gives the same destination back', () => {
    const resource = {
      id: 'hooks',
      type: 'Webhooks',
      name: 'Hooks',
      enabled: true,
      sources: ['web'],
      settings: {
        sharedSecret: '••••cdef',
        webhooks: [
          { url: 'https://a.example/hook', headers: { Authorization: '••••7890', 'X-Team': '••••' } },
          { url: 'https://b.example/hook' },
        ],
      },
    };
    const form = destinationFormOf(resource, 7);
    expect(form.revision).toBe('7');
    expect(form.sharedSecret).toBe('');
    expect(form.urls).toHaveLength(5);
    expect(form.urls[0].headers).toEqual([
      { name: 'Authorization', value: '••••7890' },
      { name: 'X-Team', value: '••••' },
      { name: '', value: '' },
    ]);
    expect(destinationBody(form, resource.settings.sharedSecret).body).toEqual(resource);
  });

  it('offers a row for every header a stored URL has, beyond three, and reads them all back', () => {
    const headers = { A: '••••', B: '••••', C: '••••', D: '••••' };
    const resource = {
      id: 'hooks',
      type: 'Webhooks',
      enabled: true,
      sources: [],
      settings: { webhooks: [{ url: 'https://a.example', headers }] },
    };
    const form = destinationFormOf(resource, 1);
    expect(form.urls[0].headers).toHaveLength(4);
    expect(form.urls[1].headers).toHaveLength(3);
    const posted: Record<string, string> = { [field.url(0)]: 'https://a.example', [field.enabled]: 'on' };
    form.urls[0].headers.forEach((h, i) => {
      posted[field.headerName(0, i)] = h.name;
      posted[field.headerValue(0, i)] = h.value;
    });
    const read = readDestinationForm(posted, []);
    expect(destinationBody(read).body.settings).toEqual({
      webhooks: [{ url: 'https://a.example', headers }],
    });
  });

  it('ignores values that are not text, as a form never posts them', () => {
    const form = readDestinationForm({ [field.url(0)]: ['https://a', 'https://b'], [field.enabled]: 1 }, []);
    expect(form.urls[0].url).toBe('');
    expect(form.enabled).toBe(false);
  });
});
