package hongbao.app.bench;

import io.lettuce.core.RedisClient;

/** {@code used_memory} from {@code INFO memory}: what the grabs cost Redis. */
final class RedisMemory implements AutoCloseable {

  private final RedisClient client;
  private final io.lettuce.core.api.StatefulRedisConnection<String, String> connection;

  RedisMemory(String redisUrl) {
    this.client = RedisClient.create(redisUrl);
    this.connection = client.connect();
  }

  long usedBytes() {
    String info = connection.sync().info("memory");
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("used_memory:")) {
        return Long.parseLong(line.substring("used_memory:".length()).trim());
      }
    }
    throw new IllegalStateException("no used_memory in INFO memory");
  }

  @Override
  public void close() {
    connection.close();
    client.shutdown();
  }
}
