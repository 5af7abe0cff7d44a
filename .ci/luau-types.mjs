// Luau types for the Wally package, generated from the TypeScript declarations
// the npm build emits, so the two never drift: every export of the package
// entry becomes an `export type` (interfaces, classes, aliases, enums) and a
// field of `Package`, the type of what require() returns.
//
// Conventions roblox-ts compiles to, and so what a Luau caller writes:
// - a method (a method declaration or signature) takes self: boards:submit(...);
// - a property holding a function does not: backend.sorted(...), Log.warn(...);
// - a class is a table with new(): Leaderboards.Kernel.new(options);
// - Array<T> is { T }, Map<K, V> is { [K]: V }, Set<T> is { [T]: boolean },
//   LuaTuple<[A, B]> returns (A, B), undefined is nil (T?), void returns ();
// - a type parameter constrained to string (a board name) is a plain string:
//   Luau callers pass strings, TypeScript checks the names.
//
// Besides the text it returns `surface`: each exported type's members as the
// TypeScript checker sees them (name, optional, method or field, parameter
// count), which spec/packaging/types.spec.ts compares with the Luau text.

import ts from "typescript";

const KEYWORDS = new Set(
	"and break do else elseif end false for function if in local nil not or repeat return then true until while".split(
		" ",
	),
);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function key(name) {
	return IDENTIFIER.test(name) && !KEYWORDS.has(name) ? name : `[${JSON.stringify(name)}]`;
}

function comment(symbol, checker, indent) {
	const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
	if (text === "") return [];
	return text.split("\n").map((line) => `${indent}--- ${line.trim()}`.trimEnd());
}

function isInternal(symbol) {
	return symbol.getJsDocTags().some((tag) => tag.name === "internal");
}

function isHidden(symbol) {
	const declaration = symbol.declarations?.[0];
	if (!declaration) return false;
	const flags = ts.getCombinedModifierFlags(declaration);
	if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return true;
	if (declaration.name && ts.isPrivateIdentifier(declaration.name)) return true;
	return isInternal(symbol);
}

function isMethod(symbol) {
	const declaration = symbol.declarations?.[0];
	return declaration !== undefined && (ts.isMethodSignature(declaration) || ts.isMethodDeclaration(declaration));
}

// Declared by the Roblox or compiler types rather than by this package.
function isAmbient(symbol) {
	const file = symbol?.declarations?.[0]?.getSourceFile().fileName ?? "";
	return /node_modules\/@rbxts\/(types|compiler-types)\//.test(file);
}

/**
 * Generates the Luau types module for the package whose entry declaration file
 * is `entry`, with compiler options from the project's tsconfig.
 */
export function luauTypes(entry, options) {
	const program = ts.createProgram([entry], { ...options, noEmit: true, declaration: false });
	const checker = program.getTypeChecker();
	const source = program.getSourceFile(entry);
	if (!source) throw new Error(`luau-types: ${entry} not found`);
	const moduleSymbol = checker.getSymbolAtLocation(source);

	const named = new Map(); // symbol -> Luau type name
	const hoisted = []; // [symbol, name] of types referenced but not exported
	const taken = new Set();
	const exportsOf = checker.getExportsOfModule(moduleSymbol).map((exported) => ({
		name: exported.name,
		symbol: exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported,
	}));
	exportsOf.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const TYPE_FLAGS = ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class | ts.SymbolFlags.Enum;
	for (const { name, symbol } of exportsOf) {
		if (symbol.flags & TYPE_FLAGS) {
			named.set(symbol, name);
			taken.add(name);
		}
	}

	function nameOf(symbol) {
		let name = named.get(symbol);
		if (name !== undefined) return name;
		name = symbol.name;
		for (let n = 2; taken.has(name); n++) name = `${symbol.name}${n}`;
		taken.add(name);
		named.set(symbol, name);
		hoisted.push([symbol, name]);
		return name;
	}

	// A string, a string literal, or a union of them (keyof an interface of topics).
	const stringish = (type) =>
		type !== undefined &&
		((type.flags & ts.TypeFlags.StringLike) !== 0 ||
			((type.flags & ts.TypeFlags.Union) !== 0 &&
				type.types.every((member) => member.flags & ts.TypeFlags.StringLike)));
	// A type computed from type parameters (T[K], T extends U ? X : Y): Luau has no such types.
	const computed = (type) =>
		(type.flags & (ts.TypeFlags.IndexedAccess | ts.TypeFlags.Conditional | ts.TypeFlags.Substitution)) !== 0;
	// Type parameters that stay generic in Luau (those constrained to string become string).
	const generic = (parameters) =>
		(parameters ?? []).filter((parameter) => !stringish(checker.getBaseConstraintOfType(parameter)));
	const typeParameterList = (parameters) => {
		const kept = generic(parameters);
		return kept.length > 0 ? `<${kept.map((parameter) => parameter.symbol.name).join(", ")}>` : "";
	};

	function reference(symbol, args, owner) {
		const name = named.get(symbol) ?? nameOf(symbol);
		const declared = checker.getDeclaredTypeOfSymbol(symbol);
		const parameters = declared.typeParameters ?? declared.aliasTypeArguments ?? [];
		const kept = new Set(generic(parameters));
		const rendered = (args ?? []).filter((_, index) => kept.has(parameters[index]));
		return rendered.length > 0 ? `${name}<${rendered.map((arg) => render(arg, owner)).join(", ")}>` : name;
	}

	function ambient(type, symbol, args, owner) {
		const name = symbol.name;
		const arg = (index) => render(args?.[index] ?? checker.getUnknownType(), owner);
		switch (name) {
			case "Array":
			case "ReadonlyArray":
				return `{ ${arg(0)} }`;
			case "Map":
			case "ReadonlyMap":
			case "WeakMap":
				return `{ [${arg(0)}]: ${arg(1)} }`;
			case "Set":
			case "ReadonlySet":
			case "WeakSet":
				return `{ [${arg(0)}]: boolean }`;
			case "Record":
				return `{ [${arg(0)}]: ${arg(1)} }`;
			case "Promise":
				return "any";
			case "LuaTuple":
				return `{ any }`;
			case "Partial":
			case "Readonly":
				return render(args[0], owner);
			case "Callback":
				return "(...any) -> ...any";
		}
		// A Roblox class, datatype or enum: Luau knows it by the same name.
		const full = checker.getFullyQualifiedName(symbol).replace(/^"[^"]*"\./, "");
		return full;
	}

	function signature(sig, owner, self) {
		const parameters = [];
		if (self) parameters.push(`self: ${owner}`);
		for (const parameter of sig.getParameters()) {
			const declaration = parameter.valueDeclaration;
			let type = checker.getTypeOfSymbol(parameter);
			if (declaration && ts.isParameter(declaration) && declaration.dotDotDotToken) {
				const element = computed(type) ? undefined : checker.getIndexTypeOfType(type, ts.IndexKind.Number);
				parameters.push(`...${element ? render(element, owner) : "any"}`);
				continue;
			}
			const optional =
				declaration &&
				ts.isParameter(declaration) &&
				(declaration.questionToken !== undefined || declaration.initializer !== undefined);
			let text = render(type, owner);
			if (optional) text = optionalOf(text);
			parameters.push(`${parameter.name}: ${text}`);
		}
		const returns = returnOf(checker.getReturnTypeOfSignature(sig), owner);
		return `${typeParameterList(sig.getTypeParameters())}(${parameters.join(", ")}) -> ${returns}`;
	}

	function returnOf(type, owner) {
		if (type.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) return "()";
		const symbol = type.aliasSymbol ?? type.symbol;
		if (symbol?.name === "LuaTuple" && isAmbient(symbol)) {
			const tuple = (type.aliasTypeArguments ?? checker.getTypeArguments(type))[0];
			const elements = tuple ? checker.getTypeArguments(tuple) : [];
			return `(${elements.map((element) => render(element, owner)).join(", ")})`;
		}
		// LuaTuple<T> is T & { _nominal_LuaTuple }: its first member is the tuple.
		if (type.flags & ts.TypeFlags.Intersection) {
			const tuple = type.types.find((member) => checker.isTupleType(member));
			if (
				tuple &&
				type.types.some((member) => member.getProperty("LUA_TUPLE") || member.getProperty("_nominal_LuaTuple"))
			)
				return `(${checker
					.getTypeArguments(tuple)
					.map((element) => render(element, owner))
					.join(", ")})`;
		}
		const text = render(type, owner);
		return text.includes("->") ? `(${text})` : text;
	}

	// T? for a plain type, (T)? for a function or a union; T? stays as it is.
	function optionalOf(text) {
		const plain = !text.includes("->") && !text.includes("|") && !text.includes("&");
		if (text === "any" || text === "unknown" || (plain && text.endsWith("?"))) return text;
		return plain ? `${text}?` : `(${text})?`;
	}

	// `own`: the owner's own body, whose methods take the owner as self; an inline table nested in it is
	// not, and Luau cannot name it for its methods' self.
	function objectBody(type, owner, indent, own = true) {
		const lines = [];
		const inline = indent === undefined;
		for (const property of checker.getPropertiesOfType(type)) {
			if (isHidden(property) || property.name.startsWith("__")) continue;
			const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
			const propertyType = checker.getTypeOfSymbol(property);
			let text;
			if (isMethod(property)) {
				if (!own)
					throw new Error(
						`luau-types: ${owner}: ${property.name}() is a method of an inline object type, which has no Luau name for its self: declare that object as a named interface`,
					);
				const sigs = [
					...new Set(
						checker
							.getNonNullableType(propertyType)
							.getCallSignatures()
							.map((sig) => signature(sig, owner, true)),
					),
				];
				text = sigs.length === 1 ? sigs[0] : sigs.map((sig) => `(${sig})`).join(" & ");
			} else {
				text = render(optional ? checker.getNonNullableType(propertyType) : propertyType, owner);
			}
			if (optional) text = optionalOf(text);
			if (!inline) lines.push(...comment(property, checker, indent));
			lines.push(`${inline ? "" : indent}${key(property.name)}: ${text},`);
		}
		for (const info of checker.getIndexInfosOfType(type)) {
			lines.push(`${inline ? "" : indent}[${render(info.keyType, owner)}]: ${render(info.type, owner)},`);
		}
		return lines;
	}

	function render(type, owner, top = false) {
		const flags = type.flags;
		if (flags & ts.TypeFlags.Any) return "any";
		if (flags & ts.TypeFlags.Unknown) return "unknown";
		if (flags & ts.TypeFlags.Never) return "never";
		if (flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Null)) return "nil";
		if (flags & ts.TypeFlags.StringLiteral) return JSON.stringify(type.value);
		if (flags & ts.TypeFlags.BooleanLiteral) return checker.typeToString(type);
		if (flags & ts.TypeFlags.EnumLiteral || flags & ts.TypeFlags.Enum) {
			const enumSymbol =
				type.symbol?.parent && type.symbol.parent.flags & ts.SymbolFlags.Enum
					? type.symbol.parent
					: type.symbol;
			if (enumSymbol && named.has(enumSymbol)) return named.get(enumSymbol);
			return flags & ts.TypeFlags.StringLike ? "string" : "number";
		}
		if (flags & ts.TypeFlags.StringLike) return "string";
		if (flags & (ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike)) return "number";
		if (flags & ts.TypeFlags.BooleanLike) return "boolean";
		if (flags & ts.TypeFlags.ESSymbolLike) return "any";
		if (flags & ts.TypeFlags.TypeParameter) {
			if (type.isThisType) return owner;
			const constraint = checker.getBaseConstraintOfType(type);
			if (stringish(constraint)) return "string";
			return type.symbol.name;
		}
		if (flags & ts.TypeFlags.Union) return union(type, owner, top);
		if (computed(type)) return stringish(checker.getBaseConstraintOfType(type)) ? "string" : "any";
		if (flags & ts.TypeFlags.Intersection) {
			const viaAlias = type.aliasSymbol;
			if (viaAlias && isAmbient(viaAlias)) return ambient(type, viaAlias, type.aliasTypeArguments, owner);
			if (type.types.some((member) => checker.isTupleType(member))) return "{ any }";
			return type.types.map((member) => render(member, owner)).join(" & ");
		}
		if (flags & ts.TypeFlags.NonPrimitive) return "{ [any]: any }";
		if (!(flags & ts.TypeFlags.Object)) return "any";

		// Named types go by name (exported) or are hoisted (referenced only).
		const alias = type.aliasSymbol;
		if (!top && alias) {
			if (isAmbient(alias)) return ambient(type, alias, type.aliasTypeArguments, owner);
			if (alias.flags & ts.SymbolFlags.TypeAlias) return reference(alias, type.aliasTypeArguments, owner);
		}
		const symbol = type.symbol;
		const objectFlags = type.objectFlags ?? 0;
		if (checker.isTupleType(type))
			return `{ ${[...new Set(checker.getTypeArguments(type).map((t) => render(t, owner)))].join(" | ") || "any"} }`;
		if (
			symbol &&
			symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class) &&
			!(objectFlags & ts.ObjectFlags.Anonymous)
		) {
			const target = objectFlags & ts.ObjectFlags.Reference ? type.target : type;
			const args = objectFlags & ts.ObjectFlags.Reference ? checker.getTypeArguments(type) : [];
			if (isAmbient(symbol)) return ambient(type, symbol, args, owner);
			if (!top) return reference(target.symbol, args, owner);
		}
		const calls = type.getCallSignatures();
		if (calls.length > 0 && checker.getPropertiesOfType(type).length === 0) {
			const sigs = calls.map((sig) => signature(sig, owner, false));
			return sigs.length === 1 ? sigs[0] : sigs.map((sig) => `(${sig})`).join(" & ");
		}
		const constructs = type.getConstructSignatures();
		const body = objectBody(type, owner, undefined, top);
		if (constructs.length > 0) body.unshift(`new: ${signature(constructs[0], owner, false)},`);
		return body.length === 0 ? "{}" : `{ ${body.join(" ").replace(/,$/, "")} }`;
	}

	function union(type, owner, top) {
		const alias = type.aliasSymbol;
		if (alias && !top && isAmbient(alias)) return ambient(type, alias, type.aliasTypeArguments, owner);
		if (alias && !top && alias.flags & ts.SymbolFlags.TypeAlias)
			return reference(alias, type.aliasTypeArguments, owner);
		// A union of one Roblox enum's items is that enum.
		const parents = new Set(type.types.map((member) => member.symbol?.parent));
		const [parent] = parents;
		if (
			parents.size === 1 &&
			parent &&
			isAmbient(parent) &&
			checker.getFullyQualifiedName(parent).startsWith("Enum.")
		)
			return checker.getFullyQualifiedName(parent);
		const enumSymbol = type.symbol && type.symbol.flags & ts.SymbolFlags.Enum ? type.symbol : undefined;
		if (enumSymbol) return named.get(enumSymbol) ?? "number";
		let optional = false;
		const parts = [];
		let sawTrue = false;
		let sawFalse = false;
		for (const member of type.types) {
			if (member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Null)) {
				optional = true;
				continue;
			}
			if (member.flags & ts.TypeFlags.BooleanLiteral) {
				if (checker.typeToString(member) === "true") sawTrue = true;
				else sawFalse = true;
				continue;
			}
			const text = render(member, owner);
			if (!parts.includes(text)) parts.push(text);
		}
		if (sawTrue && sawFalse) parts.push("boolean");
		else if (sawTrue) parts.push("true");
		else if (sawFalse) parts.push("false");
		if (parts.length === 0) return "nil";
		const wrapped = parts.map((part) => (part.includes("->") ? `(${part})` : part));
		const text = wrapped.join(" | ");
		if (!optional) return text;
		return wrapped.length === 1 ? optionalOf(wrapped[0]) : `(${text})?`;
	}

	const surface = {};
	const parameterLists = {};
	function declare(symbol, name, exported) {
		const lines = comment(symbol, checker, "");
		const declared = checker.getDeclaredTypeOfSymbol(symbol);
		const keyword = exported ? "export type" : "type";
		if (symbol.flags & ts.SymbolFlags.Enum) {
			lines.push(`${keyword} ${name} = number`);
			return lines;
		}
		if (symbol.flags & ts.SymbolFlags.TypeAlias) {
			const parameters = typeParameterList(declared.aliasTypeArguments ?? []);
			if (parameters) parameterLists[name] = parameters.slice(1, -1);
			lines.push(`${keyword} ${name}${parameters} = ${render(declared, name, true)}`);
			return lines;
		}
		const parameters = typeParameterList(declared.typeParameters);
		if (parameters) parameterLists[name] = parameters.slice(1, -1);
		const owner = name + parameters;
		const body = objectBody(declared, owner, "\t");
		const calls = declared.getCallSignatures();
		for (const sig of calls) body.unshift(`\t-- callable: ${signature(sig, owner, false)}`);
		lines.push(`${keyword} ${name}${parameters} = {`, ...body, "}");
		surface[name] = checker
			.getPropertiesOfType(declared)
			.filter((property) => !isHidden(property) && !property.name.startsWith("__"))
			.map((property) => ({
				name: property.name,
				optional: (property.flags & ts.SymbolFlags.Optional) !== 0,
				method: isMethod(property),
				parameters: isMethod(property)
					? Math.max(
							...checker
								.getNonNullableType(checker.getTypeOfSymbol(property))
								.getCallSignatures()
								.map((sig) => sig.getParameters().length),
						)
					: undefined,
			}));
		return lines;
	}

	function valueOf(symbol, name) {
		if (symbol.flags & ts.SymbolFlags.Class) {
			const staticSide = checker.getTypeOfSymbol(symbol);
			const constructs = staticSide.getConstructSignatures();
			const statics = objectBody(staticSide, name, undefined).filter((line) => !line.startsWith("prototype:"));
			return `{ ${[`new: ${signature(constructs[0], name, false)},`, ...statics].join(" ").replace(/,$/, "")} }`;
		}
		if (symbol.flags & ts.SymbolFlags.Enum) {
			const members = checker.getExportsOfModule(symbol).map((member) => `${key(member.name)}: ${name},`);
			return `{ ${members.join(" ").replace(/,$/, "")} }`;
		}
		if (
			symbol.flags & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule) &&
			!(symbol.flags & ts.SymbolFlags.Function)
		) {
			const members = checker
				.getExportsOfModule(symbol)
				.filter((member) => member.flags & ts.SymbolFlags.Value)
				.map((member) => `${key(member.name)}: ${render(checker.getTypeOfSymbol(member), name)},`);
			return `{ ${members.join(" ").replace(/,$/, "")} }`;
		}
		return render(checker.getTypeOfSymbol(symbol), name);
	}

	const types = [];
	const values = [];
	for (const { name, symbol } of exportsOf) {
		if (symbol.flags & TYPE_FLAGS) types.push(...declare(symbol, name, true), "");
		if (symbol.flags & ts.SymbolFlags.Value) {
			values.push(...comment(symbol, checker, "\t"), `\t${key(name)}: ${valueOf(symbol, name)},`);
		}
	}
	// Types reached only through the exported ones (hoisting may reach more).
	const local = [];
	for (let i = 0; i < hoisted.length; i++) {
		const [symbol, name] = hoisted[i];
		local.push(...declare(symbol, name, false), "");
	}
	const text = [
		"--!strict",
		"-- Generated by .ci/luau-types.mjs from the package's TypeScript declarations",
		"-- (npm run build:wally): edit the .ts sources, never this file.",
		"",
		...types,
		...local,
		"--- What require(Leaderboards) returns.",
		"export type Package = {",
		...values,
		"}",
		"",
		"return {}",
		"",
	].join("\n");
	return {
		text,
		surface,
		parameters: parameterLists,
		exported: exportsOf.filter(({ symbol }) => symbol.flags & TYPE_FLAGS).map(({ name }) => name),
	};
}
