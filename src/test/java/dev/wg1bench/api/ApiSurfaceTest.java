package dev.wg1bench.api;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.wg1bench.plan.Knob;
import dev.wg1bench.result.BenchmarkRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * No public signature of the API names an engine type: a user's code sees only the API's own types,
 * the JDK's and JUnit's, so the engine can change in any release without breaking a user's source.
 * Checked on every public or protected method (parameters, return type, generic arguments, thrown
 * types), constructor and field of every public type of {@code dev.wg1bench.api}, and on the types
 * it extends.
 */
@AnalyzeClasses(
    packages = "dev.wg1bench.api",
    importOptions = {ImportOption.DoNotIncludeTests.class, ImportOption.DoNotIncludeJars.class})
class ApiSurfaceTest {
  private static final String API = "dev.wg1bench.api";

  /**
   * What a signature may name besides the API's own types: the JDK (java.sql's Connection is what
   * an op works on, javax.sql's DataSource what setUp is given) and JUnit, whose platform the
   * assertions report through.
   */
  private static final List<String> ALLOWED = List.of("java.", "javax.sql.", "org.junit.");

  @ArchTest
  static final ArchRule noEngineTypeInAPublicSignature =
      classes()
          .that(arePublicApi())
          .should(nameOnlyApiJdkOrJUnitTypes())
          .because(
              "the engine's types may change in any release, and a user's source compiles"
                  + " against the API alone");

  /** A public type of the package, and every type it is nested in public too. */
  static DescribedPredicate<JavaClass> arePublicApi() {
    return DescribedPredicate.describe(
        "are public types of " + API, c -> c.getPackageName().equals(API) && effectivelyPublic(c));
  }

  private static boolean effectivelyPublic(JavaClass c) {
    for (JavaClass k = c; k != null; k = k.getEnclosingClass().orElse(null)) {
      if (!k.getModifiers().contains(JavaModifier.PUBLIC)) {
        return false;
      }
    }
    return !c.isAnonymousClass() && !c.isLocalClass();
  }

  static ArchCondition<JavaClass> nameOnlyApiJdkOrJUnitTypes() {
    return new ArchCondition<>("name only types of " + API + ", the JDK or JUnit") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        List<String> seen = new ArrayList<>();
        c.getSuperclass().ifPresent(s -> foreign(s, "extends", seen));
        c.getInterfaces().forEach(i -> foreign(i, "implements", seen));
        for (JavaMember m : c.getMembers()) {
          if (!visible(m)) {
            continue;
          }
          if (m instanceof JavaField f) {
            foreign(f.getType(), f.getFullName(), seen);
          } else if (m instanceof JavaCodeUnit u) {
            foreign(u.getReturnType(), u.getFullName(), seen);
            u.getParameterTypes().forEach(p -> foreign(p, u.getFullName(), seen));
            u.getThrowsClause().getTypes().forEach(t -> foreign(t, u.getFullName(), seen));
          }
        }
        for (String s : seen) {
          events.add(SimpleConditionEvent.violated(c, s));
        }
      }
    };
  }

  /** A public or protected member the compiler wrote from the source (not a bridge or lambda). */
  private static boolean visible(JavaMember m) {
    Set<JavaModifier> mods = m.getModifiers();
    return (mods.contains(JavaModifier.PUBLIC) || mods.contains(JavaModifier.PROTECTED))
        && !mods.contains(JavaModifier.SYNTHETIC)
        && !mods.contains(JavaModifier.BRIDGE);
  }

  private static void foreign(JavaType t, String where, List<String> seen) {
    for (JavaClass raw : t.getAllInvolvedRawTypes()) {
      JavaClass base = raw.getBaseComponentType();
      String name = base.getName();
      if (!base.isPrimitive()
          && !base.getPackageName().equals(API)
          && ALLOWED.stream().noneMatch(name::startsWith)) {
        seen.add(where + " names " + name);
      }
    }
  }

  /** The rule can fail: a type leaking the engine four ways is caught four times, nothing else. */
  @Test
  void theRuleCatchesAnEngineTypeInEveryKindOfSignature() {
    var classes = new ClassFileImporter().importClasses(Leaky.class);
    var report =
        classes()
            .should(nameOnlyApiJdkOrJUnitTypes())
            .evaluate(classes)
            .getFailureReport()
            .getDetails();
    Set<String> caught = new TreeSet<>();
    for (String line : report) {
      caught.add(line.replaceAll(".*\\$Leaky\\.", "").replaceAll(" names .*", ""));
    }
    assertEquals(
        Set.of("<init>(dev.wg1bench.result.BenchmarkRun)", "knob", "knobs()", "run()"),
        caught,
        String.join("\n", report));
  }

  /** The rule looks at every public type of the package and at nothing else. */
  @Test
  void thePublicTypesAreTheApisOwn() {
    var all = new ClassFileImporter().importPackages(API);
    DescribedPredicate<JavaClass> api = arePublicApi();
    assertTrue(api.test(all.get(Wg1bench.Result.class)));
    assertTrue(api.test(all.get(Comparison.Builder.class)));
    assertTrue(api.test(all.get(Op.Step.class)));
    assertFalse(api.test(all.get(Failures.class)));
    assertFalse(api.test(all.get(ApiRegistrations.class)));
  }

  /** A fixture that shows the engine in every kind of signature, and once where nobody sees it. */
  public static final class Leaky {
    /** A public field of an engine type. */
    public Knob<Integer> knob;

    /** A public constructor taking one. */
    public Leaky(BenchmarkRun run) {}

    /** A generic argument. */
    public List<Knob<?>> knobs() {
      return List.of();
    }

    /** A return type. */
    public BenchmarkRun run() {
      return null;
    }

    /** Not seen by a user: allowed. */
    BenchmarkRun hidden() {
      return null;
    }
  }
}
