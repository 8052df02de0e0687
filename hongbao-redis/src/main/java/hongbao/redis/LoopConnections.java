package hongbao.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.resource.ClientResources;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One connection to a Redis server per event loop of the HTTP server, each registered on its own
 * loop. A command issued on a loop goes out on that loop's connection: it is written there at once,
 * and its reply is read and completes the command's future on the same thread, so a grab never
 * waits for another thread to wake up (twice: Lettuce's to write, the HTTP loop's to answer).
 *
 * <p>Each connection has a client of its own whose resources lend it that one loop, so a reconnect
 * lands on the same loop; the clients share the link's executor, timer, event bus and latency
 * recorder, which the link shuts down. Thread-safe.
 */
final class LoopConnections implements AutoCloseable {

  private final EventLoops loops;
  private final List<RedisClient> clients;
  private final List<ClientResources> resources;
  private final List<StatefulRedisConnection<String, String>> connections;
  private final List<RedisClusterAsyncCommands<String, String>> commands;

  private LoopConnections(
      EventLoops loops,
      List<RedisClient> clients,
      List<ClientResources> resources,
      List<StatefulRedisConnection<String, String>> connections) {
    this.loops = loops;
    this.clients = clients;
    this.resources = resources;
    this.connections = connections;
    var async = new ArrayList<RedisClusterAsyncCommands<String, String>>(connections.size());
    connections.forEach(connection -> async.add(connection.async()));
    this.commands = List.copyOf(async);
  }

  /**
   * Connects one client per loop to the server at {@code uri}.
   *
   * @throws hongbao.core.Unavailable when the server cannot be reached
   */
  static LoopConnections open(
      EventLoops loops, RedisURI uri, ClientOptions options, ClientResources shared) {
    var clients = new ArrayList<RedisClient>(loops.size());
    var resources = new ArrayList<ClientResources>(loops.size());
    var connections = new ArrayList<StatefulRedisConnection<String, String>>(loops.size());
    try {
      for (int i = 0; i < loops.size(); i++) {
        ClientResources own =
            ClientResources.builder()
                .eventLoopGroupProvider(loops.only(i))
                .eventExecutorGroup(shared.eventExecutorGroup())
                .timer(shared.timer())
                .eventBus(shared.eventBus())
                .commandLatencyRecorder(shared.commandLatencyRecorder())
                .reconnectDelay(shared.reconnectDelay())
                .nettyCustomizer(shared.nettyCustomizer())
                .build();
        resources.add(own);
        RedisClient client = RedisClient.create(own, uri);
        client.setOptions(options);
        clients.add(client);
        connections.add(client.connect());
      }
    } catch (RuntimeException e) {
      new LoopConnections(loops, clients, resources, connections).close();
      throw RedisFaults.translate(e);
    }
    return new LoopConnections(
        loops, List.copyOf(clients), List.copyOf(resources), List.copyOf(connections));
  }

  /** The commands of the calling loop's connection; null on a thread that is not one of them. */
  RedisClusterAsyncCommands<String, String> onCurrentLoop() {
    int loop = loops.current();
    return loop < 0 ? null : commands.get(loop);
  }

  /**
   * Closes the connections and their clients; the shared parts of their resources stay up (they
   * were lent), the rest is stopped with a bounded wait.
   */
  @Override
  public void close() {
    connections.forEach(StatefulRedisConnection::close);
    clients.forEach(RedisClient::shutdown);
    resources.forEach(
        own -> own.shutdown(0, 2_000, TimeUnit.MILLISECONDS).awaitUninterruptibly(2_000));
  }
}
