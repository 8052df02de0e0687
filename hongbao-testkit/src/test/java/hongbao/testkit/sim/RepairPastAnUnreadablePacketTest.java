package hongbao.testkit.sim;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabStore;
import hongbao.core.grab.StoreRepair;
import hongbao.core.money.Amount;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The grab store restarts having lost a paid grab of one packet, while another packet, older, has a
 * state that cannot be read (a key of the wrong type answers every script with an error). The
 * repair skips the unreadable packet and puts the paid grab back, so its share is not sold again;
 * stopping at the first packet, it left every packet after it unrepaired, pass after pass.
 */
class RepairPastAnUnreadablePacketTest {

  private final World world = new World(13, LedgerVariant.of("faithful")::create);

  @Test
  void aPacketWhoseStateCannotBeRead_isSkipped_andThePaidGrabsOfTheNextArePutBack() {
    long unreadable = world.sendsFixed("alice", 200, 2);
    long next = world.sendsFixed("erin", 200, 2);
    Object beforeTheGrab = world.store.snapshot();
    assertThat(grab(next, "bob")).isInstanceOf(GrabOutcome.Grabbed.class);
    for (int round = 0; round < 5; round++) {
      world.workers.getFirst().worker().payOnce();
    }
    assertThat(world.packets.paidGrabs(next)).containsOnlyKeys("bob");
    world.store.restartLosing(beforeTheGrab);

    int repaired =
        new StoreRepair(unreadableState(unreadable), world.packets, world.arming, world.clock)
            .checkOnce();

    assertThat(repaired).as("bob's paid grab put back").isEqualTo(1);
    assertThat(grab(next, "bob"))
        .as("his share is not sold to him again")
        .isInstanceOf(GrabOutcome.AlreadyGrabbed.class);
    assertThat(world.packets.paidGrabs(next))
        .containsExactlyInAnyOrderEntriesOf(Map.of("bob", Amount.fen(100)));
    assertThat(world.auditor().reconcile().discrepancies()).isEmpty();
  }

  private GrabOutcome grab(long packet, String user) {
    return world.grab.grab(packet, user, null).toCompletableFuture().join();
  }

  /** The world's grab store, but for {@code packet}, whose state reads fail as a corrupt key's. */
  private GrabStore unreadableState(long packet) {
    return (GrabStore)
        Proxy.newProxyInstance(
            GrabStore.class.getClassLoader(),
            new Class<?>[] {GrabStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("state") && args[0].equals(packet)) {
                throw new IllegalStateException("WRONGTYPE Operation against a key");
              }
              try {
                return method.invoke(world.store, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
