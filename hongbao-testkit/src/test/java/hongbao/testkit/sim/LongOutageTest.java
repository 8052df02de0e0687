package hongbao.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.Unavailable;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.money.Amount;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL down for many reclaim idle times, with more instances than a task may be delivered
 * times. An instance that meets the outage holds its batch and stops reclaiming; the others must
 * not take the task over again and again while the ledger cannot pay it either, or its deliveries
 * pass the limit and it is dead-lettered for an outage, against the rule that only an outage holds
 * work back and never counts against it.
 */
class LongOutageTest {

  private final World world = new World(7, LedgerVariant.of("faithful")::create);

  @Test
  void aLongLedgerOutage_withMoreInstancesThanDeliveries_deadLettersNothing() {
    while (world.workers.size() < World.MAX_DELIVERIES + 3) {
      world.startWorker();
    }
    long packet = world.aliceSendsFixed(300, 1);
    GrabOutcome grabbed = world.grab.grab(packet, "bob", null).toCompletableFuture().join();
    assertThat(grabbed).isInstanceOf(GrabOutcome.Grabbed.class);

    world.books.goDown();
    assertThatThrownBy(() -> world.workers.getFirst().worker().payOnce())
        .isInstanceOf(Unavailable.class);
    for (int round = 0; round < 3 * World.MAX_DELIVERIES; round++) {
      world.clock.advance(world.reclaimIdle.plusSeconds(1));
      for (World.Worker each : world.workers) {
        try {
          each.worker().reclaimOnce();
        } catch (Unavailable expected) {
          // waited out by the worker's loop
        }
      }
    }
    assertThat(world.queue.deadLetters(10)).as("dead letters after the outage").isEmpty();

    world.books.comeBack();
    assertThat(world.workers.getFirst().worker().payOnce()).isEqualTo(1);
    assertThat(world.packets.paidGrabs(packet)).isEqualTo(Map.of("bob", Amount.fen(300)));
    assertThat(world.queue.backlog()).isZero();
    assertThat(world.auditor().reconcile().discrepancies()).isEmpty();
  }
}
