package hongbao.app.bench;

import hongbao.redis.RedisKeys;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.function.LongSupplier;

/**
 * The payout backlog read from the service's Redis: the summed length of every payout stream, the
 * number behind the {@code hongbao_payout_backlog} gauge. A drain polls it 20 times a second;
 * through {@code /metrics} each poll made the service render every meter it has (Redis command
 * latencies with their percentiles, JVM, pool), which cost as much CPU as a fifth of the payouts
 * being measured. One script call costs Redis a fraction of a millisecond.
 */
final class StreamBacklog implements LongSupplier, AutoCloseable {

  private static final String SUM_OF_LENGTHS =
      "local n = 0 for i = 1, #KEYS do n = n + redis.call('XLEN', KEYS[i]) end return n";

  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;
  private final String[] streams;

  StreamBacklog(String redisUrl, RedisKeys keys) {
    this.client = RedisClient.create(redisUrl);
    this.connection = client.connect();
    this.streams = keys.allPayoutStreams().toArray(String[]::new);
  }

  @Override
  public long getAsLong() {
    Long total = connection.sync().eval(SUM_OF_LENGTHS, ScriptOutputType.INTEGER, streams);
    return total;
  }

  @Override
  public void close() {
    connection.close();
    client.shutdown();
  }
}
