import { redisServerMissing } from "./redis-server";

// One line at the start of the integration layer saying whether the Redis tests can run here,
// so a machine without redis-server learns why they fail before reading their errors.
export default function announceRedis() {
  const missing = redisServerMissing();
  console.log(missing ? `redis: ${missing}; the redis-* tests will fail` : "redis: the redis-* tests start their own redis-server");
}
