import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { answerConfiguration, configurationPayload } from '../src/settings';

function getter(values: Record<string, unknown>): (key: string) => unknown {
  return (key) => values[key];
}

test('configurationPayload', async (t) => {
  const cases: { name: string; settings: Record<string, unknown>; want: unknown }[] = [
    { name: 'nothing set', settings: {}, want: { models: {} } },
    {
      name: 'writer fully set, agent partly',
      settings: {
        'flowcabal.models.writer.baseUrl': 'http://127.0.0.1:8080/v1',
        'flowcabal.models.writer.model': 'w-model',
        'flowcabal.models.writer.apiKeyEnv': 'MY_KEY',
        'flowcabal.models.agent.model': ' a-model ',
      },
      want: {
        models: {
          writer: { baseUrl: 'http://127.0.0.1:8080/v1', model: 'w-model', apiKeyEnv: 'MY_KEY' },
          agent: { model: 'a-model' },
        },
      },
    },
    {
      name: 'empty and blank values are left to flowcabal.toml',
      settings: { 'flowcabal.models.embedding.model': '', 'flowcabal.models.embedding.baseUrl': '   ' },
      want: { models: {} },
    },
    {
      name: 'non-string values ignored',
      settings: { 'flowcabal.models.writer.model': 42, 'flowcabal.models.agent.model': null },
      want: { models: {} },
    },
    {
      name: 'a key pasted into an unknown setting never travels',
      settings: { 'flowcabal.models.writer.apiKey': 'sk-secret', 'flowcabal.apiKey': 'sk-secret', 'flowcabal.models.writer.model': 'm' },
      want: { models: { writer: { model: 'm' } } },
    },
    {
      name: 'unicode model names kept',
      settings: { 'flowcabal.models.writer.model': '写手-7b' },
      want: { models: { writer: { model: '写手-7b' } } },
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const got = configurationPayload(getter(c.settings));
      assert.deepEqual(got, c.want);
      assert.ok(!JSON.stringify(got).includes('sk-secret'));
    });
  }
});

test('answerConfiguration', () => {
  const get = getter({ 'flowcabal.models.writer.model': 'w', 'flowcabal.models.agent.baseUrl': 'http://x/v1' });
  const got = answerConfiguration(
    [
      { section: 'flowcabal' },
      { section: 'flowcabal.models' },
      { section: 'flowcabal.models.writer' },
      { section: 'flowcabal.models.writer.model' },
      { section: 'flowcabal.models.embedding' },
      { section: 'editor' },
      {},
    ],
    get,
  );
  assert.deepEqual(got, [
    { models: { writer: { model: 'w' }, agent: { baseUrl: 'http://x/v1' } } },
    { writer: { model: 'w' }, agent: { baseUrl: 'http://x/v1' } },
    { model: 'w' },
    'w',
    null,
    null,
    null,
  ]);
});
