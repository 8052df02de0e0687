package hongbao.app;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMembers;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The layout is the architecture: core has no I/O and no dependency on anything but the JDK, and
 * the adapters know core, never each other.
 */
class ArchitectureTest {

  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("hongbao");

  @Test
  void core_dependsOnTheJdkOnly_withoutIo() {
    noClasses()
        .that()
        .resideInAPackage("hongbao.core..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "java.io..",
            "java.nio..",
            "java.net..",
            "java.sql..",
            "javax.sql..",
            "io..",
            "org..",
            "com..",
            "hongbao.redis..",
            "hongbao.postgres..",
            "hongbao.http..",
            "hongbao.pinyin..",
            "hongbao.gateway..",
            "hongbao.app..")
        .check(CLASSES);
  }

  /**
   * Beyond packages: an idempotent answer once carried its HTTP status through core and into the
   * ledger's rows. Core holds outcomes as values; which status each gets is the HTTP adapter's
   * table (AnswerKind, Failures), so no int in core is a status and nothing is named after HTTP.
   */
  @Test
  void core_holdsNoHttpStatus_andNamesNothingAfterHttp() {
    noFields()
        .that()
        .areDeclaredInClassesThat()
        .resideInAPackage("hongbao.core..")
        .and()
        .haveRawType(int.class)
        .should()
        .haveNameMatching("(?i).*status.*")
        .check(CLASSES);
    noMembers()
        .that()
        .areDeclaredInClassesThat()
        .resideInAPackage("hongbao.core..")
        .should()
        .haveNameMatching("(?i).*http.*")
        .check(CLASSES);
    noClasses()
        .that()
        .resideInAPackage("hongbao.core..")
        .should()
        .haveSimpleNameContaining("Http")
        .check(CLASSES);
  }

  @Test
  void adapters_dependOnCore_notOnEachOther() {
    noClasses()
        .that()
        .resideInAPackage("hongbao.pinyin..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "hongbao.redis..", "hongbao.postgres..", "hongbao.http..", "hongbao.app..")
        .check(CLASSES);
    noClasses()
        .that()
        .resideInAPackage("hongbao.redis..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "hongbao.postgres..", "hongbao.http..", "hongbao.gateway..", "hongbao.app..")
        .check(CLASSES);
    noClasses()
        .that()
        .resideInAPackage("hongbao.postgres..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "hongbao.redis..", "hongbao.http..", "hongbao.gateway..", "hongbao.app..")
        .check(CLASSES);
    noClasses()
        .that()
        .resideInAPackage("hongbao.http..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "hongbao.redis..", "hongbao.postgres..", "hongbao.gateway..", "hongbao.app..")
        .check(CLASSES);
    noClasses()
        .that()
        .resideInAPackage("hongbao.gateway..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "hongbao.redis..", "hongbao.postgres..", "hongbao.http..", "hongbao.app..")
        .check(CLASSES);
    noClasses()
        .that()
        .resideInAPackage("hongbao.kafka..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "hongbao.redis..",
            "hongbao.postgres..",
            "hongbao.http..",
            "hongbao.app..",
            "hongbao.sdk..")
        .check(CLASSES);
  }

  @Test
  void rewardSdk_needsNothingOfTheServiceButItsAdapters() {
    noClasses()
        .that()
        .resideInAPackage("hongbao.sdk..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("hongbao.postgres..", "hongbao.http..", "hongbao.app..")
        .check(CLASSES);
  }

  @Test
  void core_hasNoPackageCycles() {
    slices().matching("hongbao.core.(*)..").should().beFreeOfCycles().check(CLASSES);
  }

  /**
   * Time and randomness come from the composition root, so that tests advance a clock and the
   * simulator replays a seed: nothing else reads the wall clock or draws unseeded randomness. The
   * root is {@code Main} and {@code Hongbao}, and each command line entry point (a picocli command,
   * the root of its own process). The reward SDK is a library for other services: its builder's
   * default clock is its caller's to replace, and this service passes its own.
   */
  @Test
  void onlyTheRoot_readsTheWallClock_orUnseededRandomness() {
    DescribedPredicate<JavaClass> root =
        DescribedPredicate.describe(
            "the composition root",
            c ->
                c.getName().startsWith("hongbao.app.Main")
                    || c.getName().startsWith("hongbao.app.Hongbao")
                    || c.getName().startsWith("hongbao.sdk.RewardSdk$Builder")
                    || c.isAnnotatedWith(picocli.CommandLine.Command.class));
    noClasses()
        .that(DescribedPredicate.not(root))
        .should()
        .callMethod(java.time.Instant.class, "now")
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(java.time.Clock.class, "systemUTC")
        .orShould()
        .callMethod(java.time.Clock.class, "systemDefaultZone")
        .orShould()
        .dependOnClassesThat()
        .areAssignableTo(java.util.concurrent.ThreadLocalRandom.class)
        .orShould()
        .callConstructor(java.util.Random.class)
        .check(CLASSES);
  }

  /** The simulator's in-memory ports never serve: only the simulate command reaches them. */
  @Test
  void onlyTheSimulateCommand_usesTheTestKit() {
    noClasses()
        .that()
        .resideOutsideOfPackage("hongbao.testkit..")
        .and()
        .doNotHaveFullyQualifiedName("hongbao.app.cli.SimulateCommand")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("hongbao.testkit..")
        .check(CLASSES);
  }
}
