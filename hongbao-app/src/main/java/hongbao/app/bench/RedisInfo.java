package hongbao.app.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.OptionalLong;

/**
 * What the bench reads from Redis: from {@code INFO}, {@code used_memory} (what the grabs cost
 * Redis) and {@code process_id} (whose CPU time to measure when Redis runs on this machine); and
 * whether a key exists; from {@code INFO persistence}, whether a background rewrite runs or waits
 * to; from {@code INFO stats}, how many children the server forked. The one thing it asks of Redis
 * is a rewrite of the embedded server's append-only file before a measured window.
 */
final class RedisInfo implements AutoCloseable {

  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;

  RedisInfo(String redisUrl) {
    this.client = RedisClient.create(redisUrl);
    this.connection = client.connect();
  }

  long usedBytes() {
    return field("memory", "used_memory")
        .orElseThrow(() -> new IllegalStateException("no used_memory in INFO memory"));
  }

  /** The server's pid, if it runs on this machine (a remote server's pid means nothing here). */
  OptionalLong localPid() {
    OptionalLong pid = field("server", "process_id");
    if (pid.isEmpty() || !ProcessCpu.command(pid.getAsLong()).startsWith("redis")) {
      return OptionalLong.empty();
    }
    return pid;
  }

  /**
   * Whether the server has a child at work: an AOF rewrite (the embedded server keeps an AOF,
   * rewritten once it has doubled) or an RDB save. The child shares the server's CPUs, and its CPU
   * time is added to the server's when it is reaped.
   */
  boolean rewriting() {
    String persistence = connection.sync().info("persistence");
    return value(persistence, "aof_rewrite_in_progress").orElse(0) == 1
        || value(persistence, "aof_rewrite_scheduled").orElse(0) == 1
        || value(persistence, "rdb_bgsave_in_progress").orElse(0) == 1;
  }

  /**
   * How many children the server has forked since it started ({@code total_forks} of {@code INFO
   * stats}): AOF rewrites and RDB saves. Empty for a server that does not say.
   */
  OptionalLong forks() {
    return field("stats", "total_forks");
  }

  /**
   * Starts a rewrite of the append-only file now (Redis schedules it after a child still at work).
   * A rewrite already under way, started since the caller last looked, does as well.
   */
  void rewriteAof() {
    try {
      connection.sync().bgrewriteaof();
    } catch (RedisCommandExecutionException e) {
      if (e.getMessage() == null || !e.getMessage().contains("already in progress")) {
        throw e;
      }
    }
  }

  boolean exists(String key) {
    return connection.sync().exists(key) > 0;
  }

  private OptionalLong field(String section, String name) {
    return value(connection.sync().info(section), name);
  }

  private static OptionalLong value(String info, String name) {
    String prefix = name + ":";
    for (String line : info.split("\r?\n")) {
      if (line.startsWith(prefix)) {
        return OptionalLong.of(Long.parseLong(line.substring(prefix.length()).trim()));
      }
    }
    return OptionalLong.empty();
  }

  @Override
  public void close() {
    connection.close();
    client.shutdown();
  }
}
