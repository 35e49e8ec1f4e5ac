// Prints the Scala view of jars or class directories as JSON lines, read by the Scala 3
// compiler itself (its unpicklers read TASTy and Scala 2 pickles alike).
//
// Usage: ScalaSignatureDump --classpath CP INPUT...
// One line per top-level or nested class/object/trait:
//   {"class":{"jvm":..., "fqn":..., "kind":..., "modifiers":[...], "sig":..., "deprecated":b,
//             "experimental":b,
//             "members":[{"kind":..., "modifiers":[...], "sig":..., "abstract":b,
//                         "protected":b, "deprecated":b, "experimental":b,
//                         "receiver":... or null}]}}
// one per problem {"problem":{"name":..., "source":..., "reason":...}}, and
// {"stats":{...}} at the end. Signatures are Scala text; a fully-qualified class name is
// written between two U+0001 characters, always in prefix form (`<:<[A, B]`).

import java.io.File
import java.util.zip.ZipFile

import scala.collection.mutable
import scala.jdk.CollectionConverters.*

import dotty.tools.dotc.Driver
import dotty.tools.dotc.core.Contexts.*
import dotty.tools.dotc.core.Decorators.*
import dotty.tools.dotc.core.Flags
import dotty.tools.dotc.core.Names.*
import dotty.tools.dotc.core.NameOps.*
import dotty.tools.dotc.core.StdNames.nme
import dotty.tools.dotc.core.Symbols.*
import dotty.tools.dotc.core.Types.*
import dotty.tools.dotc.util.NameTransformer
import dotty.tools.dotc.reporting.{Diagnostic, StoreReporter}

object ScalaSignatureDump extends Driver:
  override def sourcesRequired: Boolean = false

  private val Mark = "\u0001"
  private val out = new java.io.PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8")

  private def q(s: String): String =
    val b = new StringBuilder("\"")
    s.foreach {
      case '"' => b.append("\\\"")
      case '\\' => b.append("\\\\")
      case '\n' => b.append("\\n")
      case c if c < ' ' => b.append(f"\\u${c.toInt}%04x")
      case c => b.append(c)
    }
    b.append('"').toString

  private def arr(xs: Iterable[String]): String = xs.map(q).mkString("[", ",", "]")

  private def problemLine(top: String, name: String, source: String, reason: String): String =
    (s"""{"problem":{"top":${q(top)},"name":${q(name)},"source":${q(source)},"reason":${q(reason)}}}""")

  /// top-level names (package, decoded simple name) and the source of each
  private def topLevel(input: String): Seq[(String, String, String)] =
    val f = new File(input)
    val entries: Seq[String] =
      if f.isDirectory then
        val base = f.toPath
        java.nio.file.Files.walk(base).iterator().asScala
          .filter(p => java.nio.file.Files.isRegularFile(p))
          .map(p => base.relativize(p).toString.replace(File.separatorChar, '/')).toSeq
      else
        val z = new ZipFile(f)
        try z.entries().asScala.map(_.getName).toSeq finally z.close()
    entries.filter(e => e.endsWith(".class") && !e.startsWith("META-INF/") && !e.endsWith("module-info.class"))
      .flatMap { e =>
        val stem = e.stripSuffix(".class")
        val slash = stem.lastIndexOf('/')
        val pkg = if slash < 0 then "" else stem.substring(0, slash).replace('/', '.')
        val simple = NameTransformer.decode(termName(stem.substring(slash + 1))).toString
        val top =
          val i = simple.indexOf("$package")
          if i > 0 then simple.substring(0, i + "$package".length)
          else
            val j = simple.indexOf('$')
            if j < 0 then simple else simple.substring(0, j)
        if top.isEmpty then None else Some((pkg, top, input))
      }.distinct

  override def main(args: Array[String]): Unit =
    var cp = ""
    val inputs = mutable.ArrayBuffer[String]()
    var i = 0
    while i < args.length do
      if args(i) == "--classpath" && i + 1 < args.length then { cp = args(i + 1); i += 2 }
      else { inputs += args(i); i += 1 }
    val fullCp = (inputs.toSeq ++ cp.split(File.pathSeparatorChar).filter(_.nonEmpty)).mkString(File.pathSeparator)
    val (_, ctx0) = setup(Array("-classpath", fullCp, "-color:never", "-nowarn"), initCtx).getOrElse {
      System.err.println("cannot set up the Scala compiler")
      sys.exit(2)
    }
    val run = newCompiler(using ctx0).newRun(using ctx0)
    val store = new StoreReporter(null)
    given Context = run.runContext.fresh.setReporter(store)
    var classes = 0
    var problems = 0
    for (pkg, top, source) <- inputs.toSeq.flatMap(topLevel).distinctBy(t => (t._1, t._2)) do
      val key = if pkg.isEmpty then top else s"$pkg.$top"
      val lines = mutable.ArrayBuffer[String]()
      val bad = mutable.ArrayBuffer[String]()
      var scala = false
      try
        val pc = if pkg.isEmpty then defn.EmptyPackageClass else requiredPackage(pkg).moduleClass
        if pc.exists then
          val syms = Seq(pc.info.member(top.toTypeName).symbol, pc.info.member(top.toTermName).symbol).filter(_.exists)
          scala = syms.exists(s => !s.is(Flags.JavaDefined))
          for s <- syms do
            val cls = if s.isClass then s else if s.is(Flags.Module) then s.moduleClass else NoSymbol
            if cls.exists && cls.isClass then visit(cls.asClass, key, source, lines, bad)
      catch
        case e: Throwable =>
          bad += problemLine(key, key, source, reason(e))
      val errors = store.removeBufferedMessages.filter(_.isInstanceOf[Diagnostic.Error])
      if errors.nonEmpty then
        problems += 1
        val msg = errors.take(3).map(_.message.linesIterator.take(3).mkString(" ")).mkString("; ")
        out.println(problemLine(key, key, source, msg))
      else
        if scala then out.println(s"""{"scala":{"top":${q(key)}}}""")
        lines.foreach(out.println)
        bad.foreach(out.println)
        classes += lines.size
        problems += bad.size
    out.println(s"""{"stats":{"classes":$classes,"problems":$problems}}""")
    out.flush()

  private def reason(e: Throwable): String =
    val m = Option(e.getMessage).getOrElse("").linesIterator.take(3).mkString(" ")
    s"${e.getClass.getSimpleName}: $m" + (if System.getenv("SSD_DEBUG") != null then e.getStackTrace.take(6).mkString(" at ", " at ", "") else "")

  private val seen = mutable.HashSet[String]()
  /// problems of single members (their class is written without them)
  private val memberProblems = mutable.ArrayBuffer[String]()
  private var currentTop = ""
  private def topOf(cls: Symbol): String = currentTop

  private def visit(cls: ClassSymbol, top: String, source: String, lines: mutable.ArrayBuffer[String], bad: mutable.ArrayBuffer[String])(using Context): Unit =
    if cls.is(Flags.JavaDefined) || cls.is(Flags.Synthetic) && !cls.is(Flags.Module) || cls.isAnonymousClass then return
    if !cls.info.isInstanceOf[ClassInfo] then return
    val jvm = cls.fullName.mangledString
    if !seen.add(jvm) then return
    if !isPublic(cls) then return
    val name = cls.name.stripModuleClassSuffix.toString
    if name.contains('$') && !name.endsWith("$package") then return
    val nested = mutable.ArrayBuffer[ClassSymbol]()
    try
      currentTop = top
      lines += classLine(cls, nested)
      bad ++= memberProblems
      memberProblems.clear()
    catch
      case e: Throwable =>
        bad += problemLine(top, fqn(cls), source, reason(e))
    for n <- nested do visit(n, top, source, lines, bad)

  private def isPublic(s: Symbol)(using Context): Boolean =
    !s.is(Flags.Private) && !(s.privateWithin.exists && !s.is(Flags.Protected)) && !s.is(Flags.Local)

  private def simpleName(s: Symbol)(using Context): String =
    val n = s.name.stripModuleClassSuffix.toString
    if n.endsWith("$package") then s.owner.name.toString else n

  private def fqn(s: Symbol)(using Context): String =
    if !s.exists then return s.name.toString
    val owner = s.owner
    val simple = s.name.stripModuleClassSuffix.toString
    // top-level definitions (`File$package`) belong to their package
    if simple.endsWith("$package") then return owner.fullName.toString
    if owner.isEffectiveRoot || owner == defn.EmptyPackageClass then simple
    else if owner.is(Flags.Package) then s"${owner.fullName.toString}.$simple"
    else s"${fqn(owner)}.$simple"

  private def deprecated(s: Symbol)(using Context): Boolean = s.hasAnnotation(defn.DeprecatedAnnot)

  // Scala 3's `@experimental`: a use outside an experimental scope does not compile
  private def experimental(s: Symbol)(using Context): Boolean = s.hasAnnotation(defn.ExperimentalAnnot)

  private def classLine(cls: ClassSymbol, nested: mutable.ArrayBuffer[ClassSymbol])(using Context): String =
    val info = cls.classInfo
    val kind =
      if cls.is(Flags.Module) then "object"
      else if cls.is(Flags.Trait) then "trait"
      else if cls.is(Flags.Enum) then "enum"
      else "class"
    val mods = mutable.ArrayBuffer[String]()
    if cls.is(Flags.Case) then mods += "case"
    if cls.is(Flags.Implicit) then mods += "implicit"
    if cls.is(Flags.Sealed) then mods += "sealed"
    if cls.is(Flags.Abstract) && !cls.is(Flags.Trait) then mods += "abstract"
    if cls.is(Flags.Final) then mods += "final"
    // `protected` and `protected[pkg]` classes are not the clients'
    if cls.is(Flags.Protected) then mods += "protected"
    // a class of a class or trait (not of an object or package): a path-dependent type
    if !cls.owner.is(Flags.Package) && !cls.owner.is(Flags.Module) then mods += "inner"
    val tparams = cls.typeParams
    val tps = if tparams.isEmpty then "" else tparams.map(tp => tparamText(tp.paramName.toString, tp.paramVarianceSign, tp.paramInfo)).mkString("[", ", ", "]")
    val parents = info.declaredParents.map(_.dealias).filterNot { p =>
      val s = p.classSymbol
      s == defn.ObjectClass || s == defn.AnyClass || s == defn.AnyRefAlias || s == defn.MatchableClass
    }
    // a universal trait (`Product`, `Equals`: extends `Any`, not `AnyRef`) says so, since its
    // values are no `Object`s; any other class extends `AnyRef` without saying it
    // (its first parent is `Any`; it may still derive from `Object` through a Java interface,
    // `Ordered[A] extends Any with Comparable[A]`)
    val universal = cls.is(Flags.Trait) &&
      (!cls.derivesFrom(defn.ObjectClass) || info.declaredParents.headOption.exists(_.classSymbol == defn.AnyClass))
    val parentTexts = (if universal then Seq(clsName(defn.AnyClass)) else Seq()) ++ parents.map(ty)
    val ext = if parentTexts.isEmpty then "" else parentTexts.mkString(" extends ", " with ", "")
    val sig = s"${simpleName(cls)}$tps$ext"
    val members = mutable.ArrayBuffer[String]()
    val abstractCls = cls.is(Flags.Abstract) || cls.is(Flags.Trait)
    for d <- info.decls.toList do
      if d.isClass then nested += d.asClass
      else
        try member(cls, d, abstractCls).foreach(members += _)
        catch
          case e: Throwable =>
            memberProblems += problemLine(topOf(cls), s"${fqn(cls)}.${d.name}", "", s"member skipped: ${reason(e)}")
    // an object's members inherited from a class its clients cannot name (`Predef`'s
    // `private[scala] LowPriorityImplicits`: `intWrapper`, `wrapString`) are the object's own
    // to its clients
    if cls.is(Flags.Module) then
      val seen = mutable.Set[Name]() ++ info.decls.toList.map(_.name)
      for b <- cls.baseClasses.tail if !isPublic(b) && b.typeParams.isEmpty do
        val inherited = b.info.decls.toList.filter(d => !d.isClass && !d.isConstructor && !seen.contains(d.name))
        for d <- inherited do
          try member(cls, d, abstractCls).foreach(members += _)
          catch
            case e: Throwable =>
              memberProblems += problemLine(topOf(cls), s"${fqn(cls)}.${d.name}", "", s"member skipped: ${reason(e)}")
        seen ++= inherited.map(_.name)
    s"""{"class":{"jvm":${q(cls.fullName.mangledString)},"fqn":${q(fqn(cls))},"kind":${q(kind)},"modifiers":${arr(mods)},"sig":${q(sig)},"deprecated":${deprecated(cls)},"experimental":${experimental(cls)},"members":${members.mkString("[", ",", "]")}}}"""

  private def member(cls: ClassSymbol, d: Symbol, abstractCls: Boolean)(using Context): Option[String] =
    if !d.isTerm || d.is(Flags.Synthetic) && !d.is(Flags.Case) || d.is(Flags.Artifact) || d.is(Flags.Module) || d.is(Flags.ParamAccessor) && d.is(Flags.Private) then return None
    if !isPublic(d) then return None
    val rawName = d.name.toString
    if rawName.contains('$') || rawName.exists(_.isWhitespace) then return None
    if d.is(Flags.Accessor) && rawName.endsWith("_=") then return None
    if d.isConstructor && (abstractCls || cls.is(Flags.Module)) then return None
    if d.isConstructor && d.name != nme.CONSTRUCTOR then return None
    // Scala 2 case-class boilerplate that is not source API
    if cls.is(Flags.Case) && Set("productElementName", "productElementNames", "productElement", "productArity", "productPrefix", "productIterator", "canEqual").contains(rawName) then return None
    val mods = mutable.ArrayBuffer[String]()
    if d.is(Flags.Override) then mods += "override"
    if d.is(Flags.Final) then mods += "final"
    if d.is(Flags.Implicit) then mods += "implicit"
    var info = d.info
    val isVar = d.is(Flags.Mutable) || d.is(Flags.Accessor) && cls.classInfo.decls.lookup((rawName + "_=").toTermName).exists
    val kind =
      if d.isConstructor then "ctor"
      else if isVar then "var"
      else if !d.is(Flags.Method) || d.is(Flags.Accessor) || d.is(Flags.StableRealizable) && !d.is(Flags.Method) then "val"
      else "def"
    val ext = d.is(Flags.ExtensionMethod)
    var receiver: Option[String] = None
    val name = if d.isConstructor then "this" else rawName
    if d.isConstructor then info match
      case pt: PolyType => info = pt.resType
      case _ => ()
    val sb = new StringBuilder(name)
    var tpe: Type = info
    val tparamNames = mutable.ArrayBuffer[String]()
    val tparamTexts = mutable.ArrayBuffer[String]()
    val lists = mutable.ArrayBuffer[String]()
    val termLists = d.paramSymss.filter(_.headOption.forall(_.isTerm))
    var listIndex = 0
    var first = true
    var done = false
    while !done do
      tpe match
        case pt: PolyType =>
          pt.paramNames.lazyZip(pt.paramInfos).foreach { (n, b) =>
            tparamNames += n.toString
            tparamTexts += tparamText(n.toString, 0, b)
          }
          tpe = pt.resType
        case mt: MethodType =>
          // a parameter with a default value is written `x: T = ?` (overload resolution
          // counts a call that leaves it out)
          val syms = termLists.lift(listIndex).getOrElse(Nil)
          listIndex += 1
          val params = mt.paramNames.lazyZip(mt.paramInfos).toList.zipWithIndex.map { case ((n, p), i) =>
            val dflt = if syms.lift(i).exists(_.is(Flags.HasDefault)) then " = ?" else ""
            s"${n.toString}: ${paramTy(p)}$dflt"
          }
          if ext && first && !mt.isContextualMethod && !mt.isImplicitMethod && receiver.isEmpty then
            receiver = Some(mt.paramInfos.headOption.map(paramTy).getOrElse(""))
          else
            val prefix = if mt.isContextualMethod then "using " else if mt.isImplicitMethod then "implicit " else ""
            lists += params.mkString(s"($prefix", ", ", ")")
          first = false
          tpe = mt.resType
        case et: ExprType =>
          tpe = et.resType
          done = true
        case _ => done = true
    if tparamTexts.nonEmpty then sb.append(tparamTexts.mkString("[", ", ", "]"))
    lists.foreach(sb.append)
    if !d.isConstructor then sb.append(" : ").append(ty(tpe))
    val isAbstract = d.is(Flags.Deferred)
    Some(s"""{"kind":${q(kind)},"modifiers":${arr(mods)},"sig":${q(sb.toString)},"abstract":$isAbstract,"protected":${d.is(Flags.Protected)},"deprecated":${deprecated(d)},"experimental":${experimental(d)},"receiver":${receiver.map(q).getOrElse("null")}}""")

  private def bounds(b: Type)(using Context): String =
    b match
      case TypeBounds(lo, hi) =>
        val l = if lo.isExactlyNothing then "" else s" >: ${ty(lo)}"
        val h = hi match
          case _ if hi.isExactlyAny || hi.typeSymbol == defn.AnyKindClass => ""
          // `T <: AnyRef` keeps value classes and universal traits out of `T`
          case _ if hi.isAnyRef => s" <: ${clsName(defn.ObjectClass)}"
          case _: HKTypeLambda => ""
          case _ => s" <: ${ty(hi)}"
        l + h
      case _ => ""

  private def tparamText(name: String, variance: Int, b: Type)(using Context): String =
    val v = if variance > 0 then "+" else if variance < 0 then "-" else ""
    // a constructor parameter's own parameters keep their variances and bounds
    // (`T[_, -_]`, `F[_ <: AnyRef]`): a constructor given for it must match them
    val hk = b match
      case TypeBounds(_, hi: HKTypeLambda) =>
        hi.typeParams.map { p =>
          val n = p.paramName.toString
          tparamText(if n.contains('$') then "_" else n, p.paramVarianceSign, p.paramInfo)
        }.mkString("[", ", ", "]")
      case _ => ""
    // a constructor parameter's own bound (`CC[X] <: Seq[X]`), which `bounds` leaves out
    val hkBound = b match
      case TypeBounds(_, hi: HKTypeLambda)
          if !(hi.resType.isExactlyAny || hi.resType.typeSymbol == defn.AnyKindClass) =>
        s" <: ${ty(hi.resType)}"
      case _ => ""
    s"$v$name$hk${bounds(b)}$hkBound"

  /** True while a parameter's type is written: a refinement there is kept (see `tyInner`). */
  private var inParameter = false

  private def paramTy(p: Type)(using Context): String =
    val outer = inParameter
    inParameter = true
    try paramTyInner(p)
    finally inParameter = outer

  private def paramTyInner(p: Type)(using Context): String =
    p match
      case ExprType(r) => s"=> ${ty(r)}"
      case AppliedType(tc, List(arg)) if tc.typeSymbol == defn.RepeatedParamClass => s"${ty(arg)}*"
      case AnnotatedType(u, _) => paramTy(u)
      case _ => ty(p)

  private def clsName(s: Symbol)(using Context): String = Mark + fqn(s) + Mark

  private var depth = 0

  def ty(t: Type)(using Context): String =
    depth += 1
    try
      if depth > 100 then "scala.Any"
      else tyInner(t)
    finally depth -= 1

  private def tyInner(t: Type)(using Context): String =
    t match
      case AppliedType(hk: HKTypeLambda, args) if hk.paramNames.size == args.size =>
        // a type lambda applied (Scala 2 pickles eta-expand type constructors)
        ty(hk.instantiate(args))
      case AppliedType(tc, args) =>
        val s = tc.typeSymbol
        if defn.isFunctionSymbol(s) && args.nonEmpty then
          // a context function type (`A ?=> B`, applied to the givens in scope) is no
          // plain function type; a library compiled with capture checking (scala-library
          // 3.8 on) names it by its alias `ImpureContextFunctionN`
          val context = defn.isContextFunctionClass(s) || defn.isContextFunctionClass(t.dealias.typeSymbol) ||
            s.name.toString.contains("ContextFunction")
          val arrow = if context then "?=>" else "=>"
          s"(${args.init.map(ty).mkString(", ")}) $arrow ${ty(args.last)}"
        else if defn.isTupleClass(s) && args.size > 1 then
          args.map(ty).mkString("(", ", ", ")")
        else if s == defn.RepeatedParamClass then s"${ty(args.head)}*"
        else
          tc match
            case tr: TypeRef if tr.symbol.isAliasType && !tr.symbol.isOpaqueAlias =>
              // an alias applied: its expansion, reduced
              val d = t.dealias
              if d ne t then ty(d) else s"${ty(tr.dealias)}[${args.map(ty).mkString(", ")}]"
            case _ => s"${ty(tc)}[${args.map(ty).mkString(", ")}]"
      case tr: TypeRef =>
        val s = tr.symbol
        if !s.exists then tr.name.toString
        else if s.isClass then clsName(s)
        else if s.is(Flags.TypeParam) || s.owner.isTerm then s.name.toString
        else if s.isAliasType && !s.isOpaqueAlias then
          tr.info match
            case TypeAlias(a) => ty(a)
            case _ => s.name.toString
        else if s.isOpaqueAlias || s.owner.is(Flags.Package) || s.owner.is(Flags.Module) then Mark + fqn(s) + Mark
        else s.name.toString
      case tp: TypeParamRef => tp.paramName.toString
      case tr: TermRef =>
        val s = tr.symbol
        if s.is(Flags.Module) then clsName(s.moduleClass) + ".type" else s"${s.name}.type"
      case tt: ThisType => clsName(tt.cls)
      case TypeBounds(lo, hi) => "_" + bounds(t)
      case AndType(a, b) => s"${ty(a)} & ${ty(b)}"
      // `A | Null` (explicit nulls) is `A` as Scala without explicit nulls sees it
      case OrType(a, b) if b.isNullType => ty(a)
      case OrType(a, b) if a.isNullType => ty(b)
      case OrType(a, b) => s"${ty(a)} | ${ty(b)}"
      case ExprType(r) => s"=> ${ty(r)}"
      case AnnotatedType(u, _) => ty(u)
      // a refinement (`Representable[F] { type Representation = R }`) is dropped from a
      // result, which it only narrows; a parameter's is written (`P { N }`), which no
      // type parser reads, so that the member is skipped rather than called too widely
      case rt: RefinedType =>
        if inParameter then s"${ty(rt.parent)} { ${rt.refinedName} }" else ty(rt.parent)
      case ft: FlexibleType => ty(ft.hi)
      case ct: ConstantType => ty(ct.underlying.widen)
      case hk: HKTypeLambda if (hk.resType match
            case AppliedType(_, args) => args == hk.paramRefs
            case _ => false) =>
        // `[A] =>> F[A]` is `F`
        hk.resType match
          case AppliedType(tc, _) => ty(tc)
          case _ => t.show
      case hk: HKTypeLambda =>
        s"[${hk.paramNames.mkString(", ")}] =>> ${ty(hk.resType)}"
      case pr: ParamRef => pr.paramName.toString
      case _ => t.show
