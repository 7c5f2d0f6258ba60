// The client side of tcpu_serve_test.sh: OpenAI's official JavaScript client (and, for what
// no client would send, node's http and net modules) against a running tcpu-serve.
//   node openai_client_test.js OPENAI_PACKAGE_DIR PORT EXPECTED_DIR SCENARIO [SERVER_PID]
// EXPECTED_DIR holds conv_<i>.json (a conversation), expected_<i>.txt and expected_<i>.err
// (tcpu-decode --messages' stdout and stderr for it, greedy, MAX_TOKENS new tokens), and
// prompt.txt with completion.txt / completion.err (tcpu-decode --prompt-file). Scenarios:
//   answers   chat (whole and streamed), completions, stop strings, usage, the models list;
//             N_CONVERSATIONS conversations one after another, then all at once
//   bad       every kind of bad request, each followed by a good one that still succeeds
//   away      a client that goes away mid-stream; the others are still served, its slot is freed
//   slow      (a server with --read-timeout 1) clients that stall mid-request are answered or
//             dropped; a request sent whole is still served
//   sigterm-finish / sigterm-cancel  SIGTERM to SERVER_PID during a stream: it finishes (or,
//             with --shutdown-deadline 0, ends either way) and new connections are refused
// Prints "ok  NAME" / "FAIL NAME: why" per check; exits 1 if any failed.
// No check depends on timing (CI runs on a loaded machine): every wait is for an event that must
// come, and an outcome that depends on how fast the server generates (a full queue's 503, the
// cancellation of a stream by the shutdown deadline) is scheduler_test's, which drives the steps
// itself. Raw requests open a connection each (no keep-alive), so that no request races the
// server closing an idle connection.
'use strict';
const fs = require('fs');
const http = require('http');
const net = require('net');
const path = require('path');

const [openaiDir, port, expectedDir, scenario, serverPid] = process.argv.slice(2);
const OpenAI = require(path.resolve(openaiDir));
const MAX_TOKENS = 16;
const base = `http://127.0.0.1:${port}`;
const client = new OpenAI({baseURL: `${base}/v1`, apiKey: 'unused', maxRetries: 0});

let failures = 0;
function check(name, condition, why) {
  if (condition) {
    console.log(`ok   ${name}`);
  } else {
    failures++;
    console.log(`FAIL ${name}: ${why === undefined ? '' : why}`);
  }
}
function checkEqual(name, got, want) {
  check(name, got === want, `got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// tcpu-decode prints the answer, then a line break; its report names the token counts.
function expected(name) {
  const text = fs.readFileSync(path.join(expectedDir, `${name}.txt`), 'utf8');
  const report = fs.readFileSync(path.join(expectedDir, `${name}.err`), 'utf8');
  const counts = /^prompt: (\d+) tokens; generated: (\d+) tokens/m.exec(report);
  return {text: text.replace(/\n$/, ''), promptTokens: +counts[1], completionTokens: +counts[2]};
}
function conversations() {
  const out = [];
  for (let i = 0; fs.existsSync(path.join(expectedDir, `conv_${i}.json`)); i++) {
    out.push({
      messages: JSON.parse(fs.readFileSync(path.join(expectedDir, `conv_${i}.json`), 'utf8')),
      expected: expected(`expected_${i}`),
    });
  }
  return out;
}

function chat(messages, extra = {}) {
  return client.chat.completions.create(
      {model: 'tiny', messages, max_tokens: MAX_TOKENS, temperature: 0, ...extra});
}

// A streamed chat: its text, its chunks, and the error that ended it (if one did).
async function streamChat(messages, extra = {}, onChunk = () => {}) {
  const stream = await chat(messages, {stream: true, ...extra});
  const chunks = [];
  let text = '';
  let error = null;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk);
      if (chunk.choices.length > 0 && chunk.choices[0].delta.content) {
        text += chunk.choices[0].delta.content;
      }
      onChunk(chunk, stream);
    }
  } catch (e) {
    error = e;
  }
  return {text, chunks, error};
}

// A raw request: {status, headers, body (parsed JSON when it is)}.
function rawRequest(method, urlPath, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const options = {method, headers, agent: false};
    const request = http.request(`${base}${urlPath}`, options, (response) => {
      const parts = [];
      response.on('data', (d) => parts.push(d));
      response.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let json = null;
        try {
          json = JSON.parse(text);
        } catch (e) {
        }
        resolve({status: response.statusCode, headers: response.headers, text, json});
      });
    });
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

// What a socket receives until the server closes it, after `send` was written in one write (and
// nothing more: a client that stalls, or one whose whole request is sent at once).
function stalledClient(send) {
  return new Promise((resolve) => {
    const socket = net.connect(+port, '127.0.0.1', () => socket.write(send));
    const parts = [];
    socket.on('data', (d) => parts.push(d));
    socket.on('close', () => resolve(Buffer.concat(parts).toString('utf8')));
    socket.on('error', () => {});
  });
}

function checkError(name, response, status, param, code) {
  const error = response.json && response.json.error;
  check(`${name}: ${status}`, response.status === status,
        `status ${response.status}: ${response.text}`);
  check(`${name}: an OpenAI error object naming ${param}`,
        error && typeof error.message === 'string' && error.message.length > 0 &&
            typeof error.type === 'string' && error.param === param &&
            (code === undefined || error.code === code),
        response.text);
}

async function checkStillServes(name, conv) {
  const answer = await chat(conv.messages);
  checkEqual(`after ${name}: a good request still gets its answer`,
             answer.choices[0].message.content, conv.expected.text);
}

async function answers() {
  const health = await rawRequest('GET', '/health');
  check('GET /health', health.status === 200 && health.json.status === 'ok', health.text);
  const models = await client.models.list();
  checkEqual('GET /v1/models (client.models.list)', models.data.map((m) => m.id).join(), 'tiny');

  const convs = conversations();
  const [first] = convs;
  const answer = await chat(first.messages);
  checkEqual('chat: the text of tcpu-decode --messages', answer.choices[0].message.content,
             first.expected.text);
  checkEqual('chat: object', answer.object, 'chat.completion');
  checkEqual('chat: role', answer.choices[0].message.role, 'assistant');
  checkEqual('chat: finish_reason', answer.choices[0].finish_reason,
             first.expected.completionTokens < MAX_TOKENS ? 'stop' : 'length');
  checkEqual('chat: usage.prompt_tokens', answer.usage.prompt_tokens, first.expected.promptTokens);
  checkEqual('chat: usage.completion_tokens', answer.usage.completion_tokens,
             first.expected.completionTokens);

  const streamed = await streamChat(first.messages, {stream_options: {include_usage: true}});
  check('stream: no error', streamed.error === null, streamed.error);
  checkEqual('stream: the text of tcpu-decode --messages', streamed.text, first.expected.text);
  checkEqual('stream: the first chunk opens the assistant turn',
             streamed.chunks[0].choices[0].delta.role, 'assistant');
  const finishing = streamed.chunks.filter((c) => c.choices.length && c.choices[0].finish_reason);
  checkEqual('stream: one chunk has the finish_reason', finishing.length, 1);
  const usage = streamed.chunks[streamed.chunks.length - 1].usage;
  checkEqual('stream: the last chunk has the usage', usage && usage.completion_tokens,
             first.expected.completionTokens);

  const prompt = fs.readFileSync(path.join(expectedDir, 'prompt.txt'), 'utf8');
  const completion = await client.completions.create(
      {model: 'tiny', prompt, max_tokens: MAX_TOKENS, temperature: 0});
  const completionExpected = expected('completion');
  checkEqual('completions: the text of tcpu-decode --prompt-file', completion.choices[0].text,
             completionExpected.text);
  checkEqual('completions: usage.prompt_tokens', completion.usage.prompt_tokens,
             completionExpected.promptTokens);
  const completionStream = await client.completions.create(
      {model: 'tiny', prompt, max_tokens: MAX_TOKENS, temperature: 0, stream: true});
  let completionText = '';
  for await (const chunk of completionStream) completionText += chunk.choices[0].text;
  checkEqual('completions, streamed: the same text', completionText, completionExpected.text);

  // A stop string from the middle of the answer: the text before it, finish_reason "stop".
  const stop = first.expected.text.slice(4, 6);
  const cut = first.expected.text.slice(0, first.expected.text.indexOf(stop));
  const stopped = await chat(first.messages, {stop: [stop]});
  checkEqual(`stop ${JSON.stringify(stop)}: the text before it`,
             stopped.choices[0].message.content, cut);
  checkEqual('stop: finish_reason', stopped.choices[0].finish_reason, 'stop');
  const stoppedStream = await streamChat(first.messages, {stop});
  checkEqual('stop, streamed: the same text', stoppedStream.text, cut);

  // One client at a time, then all at once (half of them streamed): each its own answer.
  for (let i = 0; i < convs.length; i++) {
    const one = await chat(convs[i].messages);
    checkEqual(`conversation ${i} alone`, one.choices[0].message.content, convs[i].expected.text);
  }
  const together = await Promise.all(convs.map(async (conv, i) => {
    if (i % 2) return (await streamChat(conv.messages)).text;
    return (await chat(conv.messages)).choices[0].message.content;
  }));
  together.forEach((text, i) => {
    checkEqual(`conversation ${i} of ${convs.length} at once: its single-client answer`, text,
               convs[i].expected.text);
  });
  const after = await rawRequest('GET', '/health');
  check('every slot free after the answers', after.json.slots_busy === 0 && after.json.queued === 0,
        after.text);
}

async function bad() {
  const convs = conversations();
  const good = convs[0];
  const chatBody = (extra) => JSON.stringify(
      {model: 'tiny', messages: good.messages, max_tokens: MAX_TOKENS, temperature: 0, ...extra});
  const post = (body, headers = {}) => rawRequest(
      'POST', '/v1/chat/completions', body, {'Content-Type': 'application/json', ...headers});

  const cases = [
    ['malformed JSON', () => post('{"messages": [{"role": "user"'), 400, null, 'invalid_json'],
    ['invalid UTF-8',
     () => post(Buffer.concat([Buffer.from('{"messages": [{"role": "user", "content": "'),
                               Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}]}')])),
     400, null, 'invalid_utf8'],
    ['messages of the wrong type', () => post(chatBody({messages: 'hello'})), 400, 'messages'],
    ['content of the wrong type',
     () => post(chatBody({messages: [{role: 'user', content: 5}]})), 400, 'messages[0].content'],
    ['max_tokens of the wrong type', () => post(chatBody({max_tokens: '16'})), 400, 'max_tokens'],
    ['temperature of the wrong type', () => post(chatBody({temperature: 'hot'})), 400,
     'temperature'],
    ['stop of the wrong type', () => post(chatBody({stop: [1]})), 400, 'stop[0]'],
    ['stream of the wrong type', () => post(chatBody({stream: 1})), 400, 'stream'],
    ['an unknown model', () => post(chatBody({model: 'gpt-4o'})), 404, 'model', 'model_not_found'],
    ['max_tokens 0', () => post(chatBody({max_tokens: 0})), 400, 'max_tokens'],
    ['max_tokens -1', () => post(chatBody({max_tokens: -1})), 400, 'max_tokens'],
    ['max_tokens above the context', () => post(chatBody({max_tokens: 1000000})), 400,
     'max_tokens'],
    ['a prompt over the context',
     () => post(chatBody({messages: [{role: 'user', content: 'word '.repeat(4000)}]})), 400,
     'messages', 'context_length_exceeded'],
    ['a body over --max-body-bytes', () => post(chatBody({padding: 'x'.repeat(200000)})), 413,
     null, 'request_too_large'],
    ['a chunked body over --max-body-bytes',
     () => post(chatBody({padding: 'x'.repeat(200000)}), {'Transfer-Encoding': 'chunked'}), 413,
     null, 'request_too_large'],
    ['a template that refuses the roles',
     () => post(chatBody({messages: [{role: 'tool', content: 'a'}]})), 400, 'messages'],
    ['no body', () => rawRequest('POST', '/v1/chat/completions'), 400, null, 'invalid_json'],
    ['an unknown route', () => rawRequest('GET', '/v1/embeddings'), 404, null, 'not_found'],
    ['a completion without prompt',
     () => rawRequest('POST', '/v1/completions', '{"model": "tiny"}'), 400, 'prompt'],
  ];
  for (const [name, send, status, param, code] of cases) {
    checkError(name, await send(), status, param, code);
    await checkStillServes(name, good);
  }

  // The official client sees the same errors as exceptions carrying the error object.
  try {
    await chat(good.messages, {max_tokens: 0});
    check('client: max_tokens 0 throws', false, 'no exception');
  } catch (e) {
    check('client: max_tokens 0 throws BadRequestError naming max_tokens',
          e instanceof OpenAI.BadRequestError && e.status === 400 && e.param === 'max_tokens', e);
  }
  try {
    await chat(good.messages, {model: 'other'});
    check('client: an unknown model throws', false, 'no exception');
  } catch (e) {
    check('client: an unknown model throws NotFoundError',
          e instanceof OpenAI.NotFoundError && e.code === 'model_not_found', e);
  }
  await checkStillServes('the client errors', good);
}

// Clients that stall mid-request (the server runs with --read-timeout 1, and they never send the
// rest): a body that never arrives in full gets 408, headers that never end get 400, a request
// line that never ends has its connection closed. None of them holds up the others. The good
// requests here are written whole in one write, so that they never wait on the client.
async function slow() {
  const [good] = conversations();
  const body = JSON.stringify(
      {model: 'tiny', messages: good.messages, max_tokens: MAX_TOKENS, temperature: 0});
  const goodRequest = async (name) => {
    const answer = await stalledClient(
        'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Connection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const json = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    checkEqual(`after ${name}: a good request still gets its answer`,
               json.choices && json.choices[0].message.content, good.expected.text);
  };
  const slowBody = stalledClient(
      'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      'Content-Length: 100\r\n\r\n{"messages"');
  const slowHeaders = stalledClient('POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n');
  const slowLine = stalledClient('POST /v1/chat/compl');
  await goodRequest('three stalled clients connect');
  const slowBodyAnswer = await slowBody;
  check('a body slower than --read-timeout: 408 with an error object',
        /^HTTP\/1\.1 408 /.test(slowBodyAnswer) && /"code":"request_timeout"/.test(slowBodyAnswer),
        slowBodyAnswer);
  const slowHeadersAnswer = await slowHeaders;
  check('headers slower than --read-timeout: 400 with an error object',
        /^HTTP\/1\.1 400 /.test(slowHeadersAnswer) && /"error":\{/.test(slowHeadersAnswer),
        slowHeadersAnswer);
  checkEqual('a request line slower than --read-timeout: the connection is closed',
             await slowLine, '');
  await goodRequest('the slow clients');
}

// A client that goes away after the first piece of a long stream (whether its generation is then
// cancelled or has already ended is up to timing, and not checked here: scheduler_test checks
// that a cancelled client frees its slot at the next step). The others are served meanwhile, and
// once the generation has ended one way or the other every slot is free.
async function away() {
  const convs = conversations();
  const controller = new AbortController();
  const stream = await client.chat.completions.create(
      {model: 'tiny', messages: convs[1].messages, max_tokens: 400, temperature: 0, stream: true},
      {signal: controller.signal});
  let piece = '';
  try {
    for await (const chunk of stream) {
      if (chunk.choices.length && chunk.choices[0].delta.content) {
        piece = chunk.choices[0].delta.content;
        controller.abort();
        break;
      }
    }
  } catch (e) {
  }
  check('the client went away after a piece of its answer', piece.length > 0);
  await checkStillServes('a client that went away', convs[0]);
  // Ends: the generation is cancelled at the next step, or runs out its 400 tokens.
  let load = (await rawRequest('GET', '/health')).json;
  while (load.slots_busy > 0 || load.queued > 0) load = (await rawRequest('GET', '/health')).json;
  check('every slot is free once it has ended', true);
}

async function sigterm(finish) {
  const [conv] = conversations();
  let signalled = false;
  const extra = finish ? {} : {max_tokens: 400};
  const streamed = await streamChat(conv.messages, extra, (chunk) => {
    if (!signalled && chunk.choices.length && chunk.choices[0].delta.content) {
      signalled = true;
      process.kill(+serverPid, 'SIGTERM');
    }
  });
  check('SIGTERM was sent during the stream', signalled);
  if (finish) {
    check('SIGTERM: the stream in flight finishes', streamed.error === null, streamed.error);
    checkEqual('SIGTERM: with its whole text', streamed.text, conv.expected.text);
  } else {
    // Cancelled at the server's next step, unless the generation ended first: which one is up to
    // timing (scheduler_test checks the cancellation itself).
    check('SIGTERM, --shutdown-deadline 0: the stream ends, whole or with a shutting_down event',
          streamed.error === null || streamed.error.code === 'shutting_down', streamed.error);
    check('SIGTERM, --shutdown-deadline 0: what came is the start of the answer',
          streamed.text.length > 0 && (streamed.text.startsWith(conv.expected.text) ||
                                       conv.expected.text.startsWith(streamed.text)),
          streamed.text);
  }
  // The listening socket closes once the server has taken the signal; until then /health still
  // answers (a connection taken just as it closes may also be reset). Refused connections must
  // come: the loop waits for them, however long the server takes.
  let refused = null;
  while (refused === null || refused.code !== 'ECONNREFUSED') {
    refused = await rawRequest('GET', '/health').then(() => null, (e) => e);
  }
  check('SIGTERM: new connections are refused', true);
}

const scenarios = {
  answers,
  bad,
  away,
  slow,
  'sigterm-finish': () => sigterm(true),
  'sigterm-cancel': () => sigterm(false),
};
scenarios[scenario]().then(() => process.exit(failures > 0 ? 1 : 0), (e) => {
  console.log(`FAIL ${scenario}: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
