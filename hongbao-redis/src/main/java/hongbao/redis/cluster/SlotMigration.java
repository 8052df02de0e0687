package hongbao.redis.cluster;

import hongbao.redis.RedisFaults;
import io.lettuce.core.MigrateArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves one hash slot from the master that owns it to another, step by step as {@code redis-cli
 * --cluster reshard} does: the target is told it imports the slot and the source that it migrates
 * it, the keys go over in batches with MIGRATE (each batch atomic: the source serves nothing while
 * it runs), and finally every master is told the slot's new owner. Meanwhile a command on the slot
 * is served by the source while it has all its keys, sent on to the target (ASK) for keys already
 * moved, and answered TRYAGAIN when its keys are split between the two. The drills move slots under
 * load with it; the steps are separate so that a test can hold a slot half-moved.
 *
 * <p>Not thread-safe: one migration, driven by one thread.
 */
public final class SlotMigration implements AutoCloseable {

  private static final int MIGRATE_TIMEOUT_MILLIS = 5_000;

  private final int slot;
  private final RedisClient client;
  private final List<StatefulRedisConnection<String, String>> masters = new ArrayList<>();
  private final StatefulRedisConnection<String, String> source;
  private final StatefulRedisConnection<String, String> target;
  private final RedisURI targetUri;
  private final String targetId;

  private SlotMigration(int slot, List<RedisURI> masterUris, RedisURI to) {
    this.slot = slot;
    this.client = RedisClient.create();
    try {
      StatefulRedisConnection<String, String> from = null;
      StatefulRedisConnection<String, String> into = null;
      String ownerId = null;
      for (RedisURI uri : masterUris) {
        StatefulRedisConnection<String, String> connection = client.connect(uri);
        masters.add(connection);
        if (ownerId == null) {
          RedisClusterNode owner =
              ClusterPartitionParser.parse(connection.sync().clusterNodes())
                  .getPartitionBySlot(slot);
          ownerId = owner == null ? null : owner.getNodeId();
        }
      }
      for (int i = 0; i < masters.size(); i++) {
        String id = masters.get(i).sync().clusterMyId();
        if (id.equals(ownerId)) {
          from = masters.get(i);
        }
        RedisURI uri = masterUris.get(i);
        if (uri.getHost().equals(to.getHost()) && uri.getPort() == to.getPort()) {
          into = masters.get(i);
        }
      }
      if (from == null || into == null || from == into) {
        throw new IllegalArgumentException(
            "slot " + slot + ": owner " + ownerId + " and target " + to + " must be two masters");
      }
      this.source = from;
      this.target = into;
      this.targetUri = to;
      this.targetId = into.sync().clusterMyId();
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * Marks the slot importing on {@code to} and migrating on its owner, one of {@code masters}.
   *
   * @param masters every master of the cluster (each learns the new owner at the end)
   */
  public static SlotMigration begin(int slot, List<RedisURI> masters, RedisURI to) {
    var migration = new SlotMigration(slot, masters, to);
    try {
      String sourceId = migration.source.sync().clusterMyId();
      migration.target.sync().clusterSetSlotImporting(slot, sourceId);
      migration.source.sync().clusterSetSlotMigrating(slot, migration.targetId);
      return migration;
    } catch (RuntimeException e) {
      migration.close();
      throw RedisFaults.translate(e);
    }
  }

  /** Which of {@code masters} owns {@code slot}, as the first of them sees the cluster. */
  public static RedisURI owner(int slot, List<RedisURI> masters) {
    RedisClient client = RedisClient.create();
    try (var connection = client.connect(masters.getFirst())) {
      RedisClusterNode node =
          ClusterPartitionParser.parse(connection.sync().clusterNodes()).getPartitionBySlot(slot);
      if (node == null) {
        throw new IllegalStateException("no master serves slot " + slot);
      }
      RedisURI uri = node.getUri();
      return masters.stream()
          .filter(m -> m.getPort() == uri.getPort() && m.getHost().equals(uri.getHost()))
          .findFirst()
          .orElseThrow(() -> new IllegalStateException("slot " + slot + " is on " + uri));
    } finally {
      client.shutdown();
    }
  }

  /** Moves up to {@code count} of the slot's keys still on the source; returns how many. */
  public int moveKeys(int count) {
    List<String> keys = source.sync().clusterGetKeysInSlot(slot, count);
    if (!keys.isEmpty()) {
      source
          .sync()
          .migrate(
              targetUri.getHost(),
              targetUri.getPort(),
              0,
              MIGRATE_TIMEOUT_MILLIS,
              MigrateArgs.Builder.keys(keys));
    }
    return keys.size();
  }

  /** Moves every key left, {@code batch} at a time with {@code pause} between batches. */
  public int moveAllKeys(int batch, Duration pause) {
    int moved = 0;
    for (int step = moveKeys(batch); step > 0; step = moveKeys(batch)) {
      moved += step;
      sleep(pause);
    }
    return moved;
  }

  /** Tells the target, then the source, then every other master that the target owns the slot. */
  public void finish() {
    target.sync().clusterSetSlotNode(slot, targetId);
    source.sync().clusterSetSlotNode(slot, targetId);
    for (StatefulRedisConnection<String, String> master : masters) {
      if (master != target && master != source) {
        master.sync().clusterSetSlotNode(slot, targetId);
      }
    }
  }

  private static void sleep(Duration pause) {
    if (pause.isZero()) {
      return;
    }
    try {
      Thread.sleep(pause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted moving a slot", e);
    }
  }

  @Override
  public void close() {
    masters.forEach(StatefulRedisConnection::close);
    client.shutdown();
  }
}
