package hongbao.redis;

import hongbao.core.Invariants;
import hongbao.core.Unavailable;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.AsyncExecutions;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

/**
 * The service's connection to Redis: one server ({@code redis://host:port[/db]}) or a cluster
 * ({@code redis-cluster://host:port[,host:port...]}). Both offer Lettuce's cluster command
 * interfaces, so every adapter is written once against {@link #sync()} and {@link #async()}: on a
 * cluster a command with keys goes to the master owning the first key's slot and follows MOVED and
 * ASK itself. What a cluster changes is kept here:
 *
 * <ul>
 *   <li>a script is loaded on every master, not on one server ({@link #loadScript});
 *   <li>the store's generation is the set of the masters' run ids, so a restart or failover of any
 *       one master calls for a repair ({@link #generation});
 *   <li>one command may name keys of one hash slot only ({@link #groupsOf}).
 * </ul>
 *
 * <p>A link made by {@link #open} owns its client and the client's resources (threads, and the
 * recorder of command latencies it is given) and shuts them down on close; {@link #another()} opens
 * a further connection of the same client (for commands that block), which the caller closes.
 * Thread-safe, as Lettuce connections are.
 *
 * <p>Given the HTTP server's {@link EventLoops}, a link to one server runs on them instead of
 * threads of its own, with one connection per loop besides the shared one: {@link #async()} on a
 * loop gives that loop's connection, so the command and its reply stay on the thread serving the
 * request. Nothing may then wait for a reply on a loop: {@link #sync()} and every other blocking
 * call of the link fail loudly there (an invariant), on a cluster too. A cluster keeps Lettuce's
 * own threads: its client routes each command to one of several node connections, which a per-loop
 * client would multiply (and its topology refreshes with them), so it was left as it was.
 */
public abstract sealed class RedisLink implements AutoCloseable {

  public static final String CLUSTER_SCHEME = "redis-cluster://";

  /**
   * How often a cluster client re-reads the topology on its own; a MOVED or ASK reply, or a node
   * that keeps failing to reconnect, makes it re-read at once (Lettuce's adaptive triggers, all on
   * by default), at most once a second.
   */
  static final Duration TOPOLOGY_REFRESH = Duration.ofSeconds(5);

  private static final Duration ADAPTIVE_REFRESH_MIN_GAP = Duration.ofSeconds(1);

  private static final Duration RESOURCES_SHUTDOWN = Duration.ofSeconds(2);

  /**
   * How long a lost connection waits before its next attempt: from 10 ms, doubling, at most a
   * second, each wait drawn at random below that bound. Lettuce's default doubles up to 30 s, so a
   * Redis that was away for ten seconds could be back for another twenty before the service
   * noticed, every grab refused meanwhile; the jitter keeps many instances from reconnecting in
   * step after a restart.
   */
  static final Delay RECONNECT_DELAY =
      Delay.fullJitter(Duration.ofMillis(10), Duration.ofSeconds(1), 10, TimeUnit.MILLISECONDS);

  private RedisLink() {}

  /** Connects to the Redis named by {@code url} with Lettuce's default options and timeout. */
  public static RedisLink open(String url) {
    return open(url, ClientOptions.create(), RedisURI.DEFAULT_TIMEOUT_DURATION);
  }

  /**
   * Connects to the Redis named by {@code url}: a cluster when it starts with {@value
   * #CLUSTER_SCHEME}, else one server. A cluster client keeps {@code options} (timeouts, socket
   * options) and adds periodic and adaptive topology refresh; {@code commandTimeout} bounds the
   * synchronous calls on every node. No command latencies are recorded.
   */
  public static RedisLink open(String url, ClientOptions options, Duration commandTimeout) {
    return open(url, options, commandTimeout, CommandLatencyRecorder.disabled());
  }

  /**
   * As {@link #open(String, ClientOptions, Duration)}, with every completed command's latency given
   * to {@code latencies} (by command type and node), on this link and every {@link #another()}.
   */
  public static RedisLink open(
      String url,
      ClientOptions options,
      Duration commandTimeout,
      CommandLatencyRecorder latencies) {
    return open(url, options, commandTimeout, latencies, null);
  }

  /**
   * As {@link #open(String, ClientOptions, Duration, CommandLatencyRecorder)}; a link to one server
   * runs on {@code loops} (see the class comment), and no link blocks on them. {@code loops} may be
   * null: Lettuce's own threads, no guard.
   */
  public static RedisLink open(
      String url,
      ClientOptions options,
      Duration commandTimeout,
      CommandLatencyRecorder latencies,
      EventLoops loops) {
    boolean onLoops = loops != null && !url.startsWith(CLUSTER_SCHEME);
    ClientResources.Builder builder =
        ClientResources.builder()
            .commandLatencyRecorder(latencies)
            .reconnectDelay(RECONNECT_DELAY)
            .nettyCustomizer(new Pipeline());
    if (onLoops) {
      builder.eventLoopGroupProvider(loops.all());
    }
    ClientResources resources = builder.build();
    try {
      return open(url, options, commandTimeout, resources, loops);
    } catch (RuntimeException e) {
      shutdown(resources);
      throw e;
    }
  }

  private static RedisLink open(
      String url,
      ClientOptions options,
      Duration commandTimeout,
      ClientResources resources,
      EventLoops loops) {
    if (url.startsWith(CLUSTER_SCHEME)) {
      List<RedisURI> seeds = clusterSeeds(url);
      seeds.forEach(seed -> seed.setTimeout(commandTimeout));
      RedisClusterClient client = RedisClusterClient.create(resources, seeds);
      client.setOptions(
          ClusterClientOptions.builder(options)
              .topologyRefreshOptions(
                  ClusterTopologyRefreshOptions.builder()
                      .enablePeriodicRefresh(TOPOLOGY_REFRESH)
                      .adaptiveRefreshTriggersTimeout(ADAPTIVE_REFRESH_MIN_GAP)
                      .build())
              .build());
      try {
        return new Cluster(client, client.connect(), resources, loops);
      } catch (RuntimeException e) {
        client.shutdown();
        throw RedisFaults.translate(e);
      }
    }
    RedisURI uri = RedisURI.create(url);
    uri.setTimeout(commandTimeout);
    RedisClient client = RedisClient.create(resources, uri);
    client.setOptions(options);
    StatefulRedisConnection<String, String> shared;
    try {
      shared = client.connect();
    } catch (RuntimeException e) {
      client.shutdown();
      throw RedisFaults.translate(e);
    }
    LoopConnections perLoop = null;
    if (loops != null) {
      try {
        perLoop = LoopConnections.open(loops, uri, options, resources);
      } catch (RuntimeException e) {
        shared.close();
        client.shutdown();
        throw e;
      }
    }
    return new Server(client, shared, true, resources, loops, perLoop);
  }

  /**
   * Shared resources outlive the clients that use them, so the link that made them stops them; a
   * bounded wait, as a close must not hang on a stuck thread.
   */
  private static void shutdown(ClientResources resources) {
    resources
        .shutdown(0, RESOURCES_SHUTDOWN.toMillis(), TimeUnit.MILLISECONDS)
        .awaitUninterruptibly();
  }

  /**
   * A link over a connection to one server that the caller owns and closes; {@link #another()} is
   * not available on it.
   */
  public static RedisLink of(StatefulRedisConnection<String, String> connection) {
    return new Server(null, connection, false, null, null, null);
  }

  /** A link over a new connection of {@code client}; closing it closes that connection only. */
  public static RedisLink of(RedisClient client) {
    return new Server(client, client.connect(), true, null, null, null);
  }

  /** The seeds of {@code redis-cluster://[user:password@]host:port[,host:port...]}. */
  static List<RedisURI> clusterSeeds(String url) {
    String rest = url.substring(CLUSTER_SCHEME.length());
    int slash = rest.indexOf('/');
    if (slash >= 0) {
      rest = rest.substring(0, slash);
    }
    String credentials = "";
    int at = rest.lastIndexOf('@');
    if (at >= 0) {
      credentials = rest.substring(0, at + 1);
      rest = rest.substring(at + 1);
    }
    var seeds = new ArrayList<RedisURI>();
    for (String node : rest.split(",")) {
      if (!node.isBlank()) {
        seeds.add(RedisURI.create("redis://" + credentials + node.trim()));
      }
    }
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("no host:port in " + CLUSTER_SCHEME + " URL");
    }
    return seeds;
  }

  /**
   * Commands that wait for their reply.
   *
   * @throws Invariants.InvariantViolation on an event loop the link runs on (see the class comment)
   */
  public abstract RedisClusterCommands<String, String> sync();

  /** Commands that complete a future; on a link's event loop, that loop's own connection. */
  public abstract RedisClusterAsyncCommands<String, String> async();

  /**
   * Fails loudly when the calling thread is an event loop this link was given: {@code what} would
   * block it waiting for Redis. For the adapters' own waits on futures of {@link #async()}.
   *
   * @throws Invariants.InvariantViolation on such a thread
   */
  public abstract void refuseBlocking(String what);

  public abstract boolean isCluster();

  /** A further connection to the same Redis, for blocking commands; the caller closes it. */
  public abstract RedisLink another();

  /**
   * SCRIPT LOAD on every master (one server: that server), checking each reports {@code sha}.
   *
   * @throws hongbao.core.Unavailable when a master does not answer
   */
  public abstract void loadScript(String source, String sha);

  /** As {@link #loadScript}, without blocking: completes when every master has the script. */
  public abstract CompletionStage<Void> loadScriptAsync(String source, String sha);

  /**
   * Names the data's current lifetime: the server's run id, or the sorted run ids of the cluster's
   * masters. It changes when any of them restarts or a replica takes over, either of which may have
   * lost acknowledged writes.
   */
  public abstract String generation();

  /**
   * The {@link #generation} of the data under {@code key} alone: the run id of the server, or of
   * the master serving the key's slot. Data kept with it can only have been rolled back when this
   * changes, and reading it asks one server, not every master.
   */
  public abstract String generationOf(String key);

  /**
   * Splits keys into groups that one multi-key command may name: on a cluster, the keys of one hash
   * slot; on one server, any keys. No group holds more than {@code maxPerGroup}; the order of the
   * keys is kept within a group.
   */
  public abstract List<List<String>> groupsOf(List<String> keys, int maxPerGroup);

  /**
   * Hands every field of the hash at {@code key} and its value to {@code entry}, reading a page of
   * 1,000 at a time (HSCAN): a campaign's hashes hold a field per win or trade, and one HGETALL of
   * them would hold the server for as long as it takes to write the whole reply. A field written
   * during the scan may be seen or not, and one may be seen twice.
   */
  public void forEachInHash(String key, BiConsumer<String, String> entry) {
    var page = ScanArgs.Builder.limit(1_000);
    MapScanCursor<String, String> cursor = sync().hscan(key, page);
    while (true) {
      cursor.getMap().forEach(entry);
      if (cursor.isFinished()) {
        return;
      }
      cursor = sync().hscan(key, cursor, page);
    }
  }

  /** The client's scheduler, for retries that must not block a Lettuce thread. */
  public abstract ScheduledExecutorService scheduler();

  /** How long the connection waits for a reply to a synchronous command. */
  abstract Duration timeout();

  @Override
  public abstract void close();

  static List<List<String>> chunks(List<String> keys, int maxPerGroup) {
    if (maxPerGroup < 1) {
      throw new IllegalArgumentException("maxPerGroup must be positive: " + maxPerGroup);
    }
    var groups = new ArrayList<List<String>>();
    for (int from = 0; from < keys.size(); from += maxPerGroup) {
      groups.add(List.copyOf(keys.subList(from, Math.min(from + maxPerGroup, keys.size()))));
    }
    return groups;
  }

  static String runId(String info) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("run_id:")) {
        return line.substring("run_id:".length()).trim();
      }
    }
    throw new Invariants.InvariantViolation("INFO server without run_id");
  }

  static void checkSha(String loaded, String sha) {
    Invariants.check(sha.equals(loaded), "script loaded as %s, expected %s", loaded, sha);
  }

  /**
   * The reply of an asynchronous command, awaited as long as a synchronous one would be: for a
   * caller that sends several commands before it waits for the first reply. Refused on an event
   * loop, as a synchronous command is: the reply may be one only that loop can read.
   */
  public <T> T await(Future<T> reply, String what) {
    refuseBlocking(what);
    return await(reply, timeout(), what);
  }

  static <T> T await(Future<T> future, Duration timeout, String what) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw RedisFaults.translate(e.getCause());
    } catch (TimeoutException e) {
      throw new Unavailable("redis", what + ": no answer within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unavailable("redis", what + ": interrupted", e);
    }
  }

  /**
   * What every Redis connection's pipeline adds to Lettuce's: {@link SentOnce} at its head, and a
   * consolidation of flushes. Lettuce flushes every command on its own, one write() each. Commands
   * issued from other threads (every grab: the HTTP event loops) reach the connection's event loop
   * as separate tasks; the consolidation lets their flushes wait until the tasks already queued
   * have run, then flushes once, and during a read (replies completing futures that issue commands)
   * until the read is over. Unlike turning auto-flush off on a shared connection, no command can
   * wait for a flush that never comes: every flush still happens, a task later at most.
   */
  static final class Pipeline implements NettyCustomizer {

    /** Flushes deferred at most before one goes through anyway, bounding what sits unwritten. */
    static final int FLUSHES_DEFERRED_MAX = 64;

    @Override
    public void afterChannelInitialized(Channel channel) {
      channel.pipeline().addFirst(new FlushConsolidationHandler(FLUSHES_DEFERRED_MAX, true));
      channel.pipeline().addFirst(new SentOnce());
    }
  }

  /** One Redis server. */
  static final class Server extends RedisLink {

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final boolean closesConnection;

    /** Set on the link that owns the client: it shuts down the client and these resources. */
    private final ClientResources ownedResources;

    /** The loops no call may block on; null when none were given. */
    private final EventLoops loops;

    /** One connection per loop, on the link that owns them; else null. */
    private final LoopConnections perLoop;

    Server(
        RedisClient client,
        StatefulRedisConnection<String, String> connection,
        boolean closesConnection,
        ClientResources ownedResources,
        EventLoops loops,
        LoopConnections perLoop) {
      this.client = client;
      this.connection = connection;
      this.closesConnection = closesConnection;
      this.ownedResources = ownedResources;
      this.loops = loops;
      this.perLoop = perLoop;
    }

    @Override
    public RedisClusterCommands<String, String> sync() {
      refuseBlocking("a synchronous Redis command");
      return connection.sync();
    }

    @Override
    public RedisClusterAsyncCommands<String, String> async() {
      if (perLoop != null) {
        RedisClusterAsyncCommands<String, String> own = perLoop.onCurrentLoop();
        if (own != null) {
          return own;
        }
      }
      return connection.async();
    }

    @Override
    public void refuseBlocking(String what) {
      if (loops != null) {
        loops.refuseBlocking(what);
      }
    }

    @Override
    public boolean isCluster() {
      return false;
    }

    @Override
    public RedisLink another() {
      if (client == null) {
        throw new IllegalStateException("a link over a bare connection cannot open another");
      }
      refuseBlocking("opening a Redis connection");
      try {
        return new Server(client, client.connect(), true, null, loops, null);
      } catch (RuntimeException e) {
        throw RedisFaults.translate(e);
      }
    }

    @Override
    public void loadScript(String source, String sha) {
      refuseBlocking("loading a script synchronously");
      try {
        checkSha(connection.sync().scriptLoad(source), sha);
      } catch (RuntimeException e) {
        throw RedisFaults.translate(e);
      }
    }

    @Override
    public CompletionStage<Void> loadScriptAsync(String source, String sha) {
      return async().scriptLoad(source).thenAccept(loaded -> checkSha(loaded, sha));
    }

    @Override
    public String generation() {
      refuseBlocking("reading the server's run id");
      try {
        return runId(connection.sync().info("server"));
      } catch (RuntimeException e) {
        throw RedisFaults.translate(e);
      }
    }

    @Override
    public String generationOf(String key) {
      return generation();
    }

    @Override
    public List<List<String>> groupsOf(List<String> keys, int maxPerGroup) {
      return chunks(keys, maxPerGroup);
    }

    @Override
    public ScheduledExecutorService scheduler() {
      return connection.getResources().eventExecutorGroup();
    }

    @Override
    Duration timeout() {
      return connection.getTimeout();
    }

    @Override
    public void close() {
      if (perLoop != null) {
        perLoop.close();
      }
      if (closesConnection) {
        connection.close();
      }
      if (ownedResources != null) {
        client.shutdown();
        shutdown(ownedResources);
      }
    }
  }

  /** A Redis Cluster: commands are routed by slot, scripts and generation span the masters. */
  static final class Cluster extends RedisLink {

    private final RedisClusterClient client;
    private final StatefulRedisClusterConnection<String, String> connection;

    /** Set on the link that owns the client: it shuts down the client and these resources. */
    private final ClientResources ownedResources;

    /** The HTTP server's loops, which no call may block; null when none were given. */
    private final EventLoops loops;

    Cluster(
        RedisClusterClient client,
        StatefulRedisClusterConnection<String, String> connection,
        ClientResources ownedResources,
        EventLoops loops) {
      this.client = client;
      this.connection = connection;
      this.ownedResources = ownedResources;
      this.loops = loops;
    }

    @Override
    public RedisClusterCommands<String, String> sync() {
      refuseBlocking("a synchronous Redis command");
      return connection.sync();
    }

    @Override
    public void refuseBlocking(String what) {
      if (loops != null) {
        loops.refuseBlocking(what);
      }
    }

    @Override
    public RedisClusterAsyncCommands<String, String> async() {
      return connection.async();
    }

    @Override
    public boolean isCluster() {
      return true;
    }

    @Override
    public RedisLink another() {
      refuseBlocking("opening a Redis connection");
      try {
        return new Cluster(client, client.connect(), null, loops);
      } catch (RuntimeException e) {
        throw RedisFaults.translate(e);
      }
    }

    @Override
    public void loadScript(String source, String sha) {
      refuseBlocking("loading a script synchronously");
      await(
          loadScriptAsync(source, sha).toCompletableFuture(),
          timeout(),
          "loading a script on every master");
    }

    @Override
    public CompletionStage<Void> loadScriptAsync(String source, String sha) {
      AsyncExecutions<String> loads = connection.async().upstream().commands().scriptLoad(source);
      return loads.thenAccept(shas -> shas.forEach(loaded -> checkSha(loaded, sha)));
    }

    @Override
    public String generation() {
      refuseBlocking("reading the masters' run ids");
      AsyncExecutions<String> infos = connection.async().upstream().commands().info("server");
      List<String> replies =
          await(infos.toCompletableFuture(), timeout(), "INFO server on every master");
      var runIds = new TreeSet<String>();
      replies.forEach(info -> runIds.add(runId(info)));
      Invariants.check(!runIds.isEmpty(), "a cluster without masters");
      return String.join(",", runIds);
    }

    @Override
    public String generationOf(String key) {
      refuseBlocking("reading a master's run id");
      try {
        RedisClusterNode master = connection.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
        if (master == null) {
          throw new Unavailable("redis", "no master serves the slot of " + key, null);
        }
        return runId(connection.getConnection(master.getNodeId()).sync().info("server"));
      } catch (RuntimeException e) {
        throw RedisFaults.translate(e);
      }
    }

    @Override
    public List<List<String>> groupsOf(List<String> keys, int maxPerGroup) {
      var bySlot = new LinkedHashMap<Integer, List<String>>();
      for (String key : keys) {
        bySlot.computeIfAbsent(SlotHash.getSlot(key), slot -> new ArrayList<>()).add(key);
      }
      var groups = new ArrayList<List<String>>();
      bySlot.values().forEach(slotKeys -> groups.addAll(chunks(slotKeys, maxPerGroup)));
      return groups;
    }

    @Override
    public ScheduledExecutorService scheduler() {
      return connection.getResources().eventExecutorGroup();
    }

    @Override
    Duration timeout() {
      return connection.getTimeout();
    }

    @Override
    public void close() {
      connection.close();
      if (ownedResources != null) {
        client.shutdown();
        shutdown(ownedResources);
      }
    }
  }
}
