package hongbao.postgres;

import static hongbao.postgres.TestSchema.T0;
import static hongbao.postgres.TestSchema.task;
import static hongbao.postgres.TestSchema.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.activity.Activity;
import hongbao.core.activity.ActivityStore;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.core.password.PasswordMatch;
import hongbao.core.payout.PayoutRefused;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PostgresActivityStoreTest extends LedgerTestBase {

  private ActivityStore activities() {
    return db.database.activities();
  }

  /** A packet of three 100-fen shares sent into the activity. */
  private Packet sendInto(Activity activity, String sender) {
    Packet packet =
        new Packet(
            Packet.idOf(db.ledger.nextPacketId(), activity.id()),
            sender,
            PacketType.FIXED,
            Amount.fen(300),
            3,
            null,
            "gongxifacai",
            List.of(),
            T0,
            T0.plus(Duration.ofDays(1)),
            new PasswordMatch.Fuzzy(85));
    return db.send(packet);
  }

  @Test
  void create_thenFind_givesTheActivityBack() {
    Activity created = activities().create("春节", 3, "ops", T0);

    assertThat(activities().find(created.id())).contains(created);
    assertThat(activities().find(created.id() + 1_000)).isEmpty();
    assertThat(activities().find(Packet.MAX_ACTIVITY_ID + 1)).isEmpty();
  }

  @Test
  void packetOfAnActivity_keepsItsActivityAndMatch_inTheLedger() {
    String sender = user("sender");
    db.topUp(sender, 1_000);
    Activity activity = activities().create("元宵", 2, "ops", T0);

    Packet sent = sendInto(activity, sender);

    Packet found = db.packets.find(sent.id()).orElseThrow();
    assertThat(found).isEqualTo(sent);
    assertThat(found.activityId()).isEqualTo(activity.id());
    assertThat(found.passwordMatch()).isEqualTo(new PasswordMatch.Fuzzy(85));
  }

  @Test
  void packetOfAnUnknownActivity_isRefusedByTheLedger() {
    String sender = user("sender");
    db.topUp(sender, 1_000);
    Activity ghost = new Activity(Packet.MAX_ACTIVITY_ID, "ghost", 1, "ops", T0);

    assertThatThrownBy(() -> sendInto(ghost, sender)).isInstanceOf(RuntimeException.class);
    assertThat(db.balance(sender)).isEqualTo(Amount.fen(1_000));
  }

  @Test
  void paidGrabs_listEachUsersPacketsInTheActivity() {
    String sender = user("sender");
    String bob = user("bob");
    String carol = user("carol");
    db.topUp(sender, 1_000);
    Activity activity = activities().create("中秋", 3, "ops", T0);
    Packet first = sendInto(activity, sender);
    Packet second = sendInto(activity, sender);

    db.ledger.pay(List.of(task(first, bob, 100), task(second, bob, 100), task(first, carol, 100)));

    assertThat(activities().paidGrabs(activity.id()))
        .isEqualTo(Map.of(bob, List.of(first.id(), second.id()), carol, List.of(first.id())));
    assertThat(activities().paidGrabsOf(activity.id(), bob)).isEqualTo(2);
    assertThat(activities().paidGrabsOf(activity.id(), carol)).isEqualTo(1);
    assertThat(activities().paidGrabsOf(activity.id(), user("dave"))).isZero();
    Activity other = activities().create("端午", 3, "ops", T0);
    assertThat(activities().paidGrabsOf(other.id(), bob)).isZero();
  }

  @Test
  void pay_beyondTheActivitysLimit_isRefusedByTheBooks_evenInOneBatch() {
    String sender = user("sender");
    String bob = user("bob");
    db.topUp(sender, 1_000);
    Activity activity = activities().create("国庆", 2, "ops", T0);
    Packet a = sendInto(activity, sender);
    Packet b = sendInto(activity, sender);
    Packet c = sendInto(activity, sender);

    assertThatThrownBy(
            () -> db.ledger.pay(List.of(task(a, bob, 100), task(b, bob, 100), task(c, bob, 100))))
        .isInstanceOf(PayoutRefused.class)
        .hasMessageContaining("over its limit of 2");
    assertThat(db.balance(bob)).isEqualTo(Amount.ZERO);

    db.ledger.pay(List.of(task(a, bob, 100), task(b, bob, 100)));
    assertThatThrownBy(() -> db.ledger.pay(List.of(task(c, bob, 100))))
        .isInstanceOf(PayoutRefused.class);
    assertThat(db.balance(bob)).isEqualTo(Amount.fen(200));
    assertThat(db.audit.escrowBalance(c.id())).isEqualTo(Amount.fen(300));
  }
}
