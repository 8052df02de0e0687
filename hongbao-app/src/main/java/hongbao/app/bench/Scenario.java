package hongbao.app.bench;

import io.vertx.core.Future;
import java.util.List;
import java.util.function.Supplier;

/**
 * One kind of load. Preparation (funding, sending, signing tokens) is not timed; the calls it
 * returns are what the load drives and the latencies measure.
 */
interface Scenario {

  /** Every packet's share is worth this much on average: amounts stay whole fen. */
  long FEN_PER_SHARE = 100;

  String name();

  List<Supplier<Future<?>>> prepare(BenchClient client, GrabBook book);

  /**
   * The scenario of that name. {@code round} names this instance's users apart from other rounds',
   * so that a new user (with a token the service has never seen) makes each first grab.
   */
  static Scenario named(String name, BenchOptions options, String round) {
    return switch (name) {
      case "hot" -> new HotScenario(options.shares(), round);
      case "groups" -> new GroupsScenario(options.packets(), round);
      case "storm" -> new StormScenario(options.shares(), options.duplicates(), round);
      case "mixed" -> new MixedScenario(options.packets(), round);
      default ->
          throw new IllegalArgumentException(
              "unknown scenario '" + name + "': hot, groups, storm or mixed");
    };
  }

  /** Sends one LUCKY packet as the bench's sender, funding it first; returns the packet id. */
  static String sendFunded(BenchClient client, GrabBook book, int count) {
    long amount = count * FEN_PER_SHARE;
    client.topUp(Senders.SENDER, amount);
    String id = client.sendLucky(client.token(Senders.SENDER), amount, count);
    book.packet(id, amount, count);
    return id;
  }

  /** A grab call whose answer goes into the book. */
  static Supplier<Future<?>> grab(
      BenchClient client, GrabBook book, String packetId, String userId, String token) {
    return () ->
        client
            .grab(token, packetId)
            .onSuccess(body -> book.answer(packetId, userId, body))
            .onFailure(e -> book.outcome("FAILED"));
  }

  /** The names the bench gives its users. */
  final class Senders {
    static final String SENDER = "bench-sender";

    private Senders() {}
  }
}
