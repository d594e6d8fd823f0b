// The baseline: bare Fastify answering POST /verify with the JSON it was sent.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/verify', async (request) => request.body);
app.get('/healthz', async () => ({ status: 'ok' }));
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
