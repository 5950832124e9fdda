"use strict";

function _apply_decorated_descriptor(target, property, decorators, descriptor, context) {
    var desc = {};

    Object["ke" + "ys"](descriptor).forEach(function(key) {
        desc[key] = descriptor[key];
    });
    desc.enumerable = !!desc.enumerable;
    desc.configurable = !!desc.configurable;

    if ("value" in desc || desc.initializer) desc.writable = true;
    desc = decorators.slice().reverse().reduce(function(desc, decorator) {
        return decorator ? decorator(target, property, desc) || desc : desc;
    }, desc);

    var hasAccessor = Object.prototype.hasOwnProperty.call(desc, "get") || Object.prototype.hasOwnProperty.call(desc, "set");

    if (context && desc.initializer !== void 0 && !hasAccessor) {
        desc.value = desc.initializer ? desc.initializer.call(context) : void 0;
        desc.initializer = undefined;
    }
    if (hasAccessor) {
        delete desc.writable;
        delete desc.initializer;
        delete desc.value;
    }
    if (desc.initializer === void 0) {
        Object["define" + "Property"](target, property, desc);
        desc = null;
    }

    return desc;
}
exports._ = _apply_decorated_descriptor;
"use strict";

/* @minVersion 7.20.0 */

/**
  Enums are used in this file, but not assigned to vars to avoid non-hoistable values

  CONSTRUCTOR = 0;
  PUBLIC = 1;
  PRIVATE = 2;

  FIELD = 0;
  ACCESSOR = 1;
  METHOD = 2;
  GETTER = 3;
  SETTER = 4;

  STATIC = 5;

  CLASS = 10; // only used in assertValidReturnValue
*/

function _apply_decs_2203_r(targetClass, memberDecs, classDecs, parentClass) {
    function createAddInitializerMethod(initializers, decoratorFinishedRef) {
        return function addInitializer(initializer) {
            assertNotFinished(decoratorFinishedRef, "addInitializer");
            assertCallable(initializer, "An initializer");
            initializers.push(initializer);
        };
    }

    function memberDec(dec, name, desc, initializers, kind, isStatic, isPrivate, metadata, value) {
        var kindStr;

        switch (kind) {
            case 1 /* ACCESSOR */:
                kindStr = "accessor";
                break;
            case 2 /* METHOD */:
                kindStr = "method";
                break;
            case 3 /* GETTER */:
                kindStr = "getter";
                break;
            case 4 /* SETTER */:
                kindStr = "setter";
                break;
            default:
                kindStr = "field";
        }

        var ctx = { kind: kindStr, name: isPrivate ? "#" + name : name, static: isStatic, private: isPrivate, metadata: metadata };

        var decoratorFinishedRef = { v: false };

        ctx.addInitializer = createAddInitializerMethod(initializers, decoratorFinishedRef);

        var get, set;
        if (kind === 0 /* FIELD */) {
            if (isPrivate) {
                get = desc.get;
                set = desc.set;
            } else {
                get = function() {
                    return this[name];
                };
                set = function(v) {
                    this[name] = v;
                };
            }
        } else if (kind === 2 /* METHOD */) {
            get = function() {
                return desc.value;
            };
        } else {
            // replace with values that will go through the final getter and setter
            if (kind === 1 /* ACCESSOR */ || kind === 3 /* GETTER */) {
                get = function() {
                    return desc.get.call(this);
                };
            }

            if (kind === 1 /* ACCESSOR */ || kind === 4 /* SETTER */) {
                set = function(v) {
                    desc.set.call(this, v);
                };
            }
        }

        if (get) {
            var originalGet = get;
            get = function(target) {
                if (arguments.length === 0) {
                    target = this;
                }
                return originalGet.call(target);
            };
        }

        if (set) {
            var originalSet = set;
            set = function(target, value) {
                if (arguments.length === 1) {
                    value = target;
                    target = this;
                }
                return originalSet.call(target, value);
            };
        }

        if (isPrivate) {
            ctx.access = get && set ? { get: get, set: set } : get ? { get: get } : { set: set };
        } else {
            var has = function(target) {
                return name in target;
            };
            ctx.access = get && set ? { has: has, get: get, set: set } : get ? { has: has, get: get } : { has: has, set: set };
        }

        var newValue = dec(value, ctx);
        decoratorFinishedRef.v = true;
        return newValue;
    }

    function assertNotFinished(decoratorFinishedRef, fnName) {
        if (decoratorFinishedRef.v) {
            throw new Error("attempted to call " + fnName + " after decoration was finished");
        }
    }

    function assertCallable(fn, hint) {
        if (typeof fn !== "function") {
            throw new TypeError(hint + " must be a function");
        }
    }

    function assertValidReturnValue(kind, value) {
        var type = typeof value;

        if (kind === 1 /* ACCESSOR */) {
            if (type !== "object" || value === null) {
                throw new TypeError("accessor decorators must return an object with get, set, or init properties or void 0");
            }
            if (value.get !== undefined) {
                assertCallable(value.get, "accessor.get");
            }
            if (value.set !== undefined) {
                assertCallable(value.set, "accessor.set");
            }
            if (value.init !== undefined) {
                assertCallable(value.init, "accessor.init");
            }
        } else if (type !== "function") {
            var hint;
            if (kind === 0 /* FIELD */) {
                hint = "field";
            } else if (kind === 10 /* CLASS */) {
                hint = "class";
            } else {
                hint = "method";
            }
            throw new TypeError(hint + " decorators must return a function or void 0");
        }
    }

    function applyMemberDec(ret, base, decInfo, name, kind, isStatic, isPrivate, initializers, metadata) {
        var decs = decInfo[0];

        var desc, init, value;

        if (isPrivate) {
            if (kind === 0 /* FIELD */ || kind === 1 /* ACCESSOR */) {
                desc = { get: decInfo[3], set: decInfo[4] };
            } else if (kind === 3 /* GETTER */) {
                desc = { get: decInfo[3] };
            } else if (kind === 4 /* SETTER */) {
                desc = { set: decInfo[3] };
            } else {
                desc = { value: decInfo[3] };
            }
        } else if (kind !== 0 /* FIELD */) {
            desc = Object.getOwnPropertyDescriptor(base, name);
        }

        if (kind === 1 /* ACCESSOR */) {
            value = { get: desc.get, set: desc.set };
        } else if (kind === 2 /* METHOD */) {
            value = desc.value;
        } else if (kind === 3 /* GETTER */) {
            value = desc.get;
        } else if (kind === 4 /* SETTER */) {
            value = desc.set;
        }

        var newValue, get, set;

        if (typeof decs === "function") {
            newValue = memberDec(decs, name, desc, initializers, kind, isStatic, isPrivate, metadata, value);

            if (newValue !== void 0) {
                assertValidReturnValue(kind, newValue);

                if (kind === 0 /* FIELD */) {
                    init = newValue;
                } else if (kind === 1 /* ACCESSOR */) {
                    init = newValue.init;
                    get = newValue.get || value.get;
                    set = newValue.set || value.set;

                    value = { get: get, set: set };
                } else {
                    value = newValue;
                }
            }
        } else {
            for (var i = decs.length - 1; i >= 0; i--) {
                var dec = decs[i];

                newValue = memberDec(dec, name, desc, initializers, kind, isStatic, isPrivate, metadata, value);

                if (newValue !== void 0) {
                    assertValidReturnValue(kind, newValue);
                    var newInit;

                    if (kind === 0 /* FIELD */) {
                        newInit = newValue;
                    } else if (kind === 1 /* ACCESSOR */) {
                        newInit = newValue.init;
                        get = newValue.get || value.get;
                        set = newValue.set || value.set;

                        value = { get: get, set: set };
                    } else {
                        value = newValue;
                    }

                    if (newInit !== void 0) {
                        if (init === void 0) {
                            init = newInit;
                        } else if (typeof init === "function") {
                            init = [init, newInit];
                        } else {
                            init.push(newInit);
                        }
                    }
                }
            }
        }

        if (kind === 0 /* FIELD */ || kind === 1 /* ACCESSOR */) {
            if (init === void 0) {
                // If the initializer was void 0, sub in a dummy initializer
                init = function(instance, init) {
                    return init;
                };
            } else if (typeof init !== "function") {
                var ownInitializers = init;

                init = function(instance, init) {
                    var value = init;

                    for (var i = 0; i < ownInitializers.length; i++) value = ownInitializers[i].call(instance, value);

                    return value;
                };
            } else {
                var originalInitializer = init;

                init = function(instance, init) {
                    return originalInitializer.call(instance, init);
                };
            }

            ret.push(init);
        }

        if (kind !== 0 /* FIELD */) {
            if (kind === 1 /* ACCESSOR */) {
                desc.get = value.get;
                desc.set = value.set;
            } else if (kind === 2 /* METHOD */) {
                desc.value = value;
            } else if (kind === 3 /* GETTER */) {
                desc.get = value;
            } else if (kind === 4 /* SETTER */) {
                desc.set = value;
            }

            if (isPrivate) {
                if (kind === 1 /* ACCESSOR */) {
                    ret.push(function(instance, args) {
                        return value.get.call(instance, args);
                    });
                    ret.push(function(instance, args) {
                        return value.set.call(instance, args);
                    });
                } else if (kind === 2 /* METHOD */) {
                    ret.push(value);
                } else {
                    ret.push(function(instance, args) {
                        return value.call(instance, args);
                    });
                }
            } else {
                Object.defineProperty(base, name, desc);
            }
        }
    }

    function applyMemberDecs(Class, decInfos, metadata) {
        var ret = [];
        var protoInitializers;
        var staticInitializers;

        var existingProtoNonFields = new Map();
        var existingStaticNonFields = new Map();

        for (var i = 0; i < decInfos.length; i++) {
            var decInfo = decInfos[i];

            // skip computed property names
            if (!Array.isArray(decInfo)) continue;

            var kind = decInfo[1];
            var name = decInfo[2];
            var isPrivate = decInfo.length > 3;

            var isStatic = kind >= 5; /* STATIC */
            var base;
            var initializers;

            if (isStatic) {
                base = Class;
                kind = kind - 5 /* STATIC */;
                // initialize staticInitializers when we see a non-field static member
                staticInitializers = staticInitializers || [];
                initializers = staticInitializers;
            } else {
                base = Class.prototype;
                // initialize protoInitializers when we see a non-field member
                protoInitializers = protoInitializers || [];
                initializers = protoInitializers;
            }

            if (kind !== 0 /* FIELD */ && !isPrivate) {
                var existingNonFields = isStatic ? existingStaticNonFields : existingProtoNonFields;

                var existingKind = existingNonFields.get(name) || 0;

                if (existingKind === true || (existingKind === 3 /* GETTER */ && kind !== 4) /* SETTER */ || (existingKind === 4 /* SETTER */ && kind !== 3) /* GETTER */) {
                    throw new Error(
                        "Attempted to decorate a public method/accessor that has the same name as a previously decorated public method/accessor. This is not currently supported by the decorators plugin. Property name was: "
                            + name
                    );
                } else if (!existingKind && kind > 2 /* METHOD */) {
                    existingNonFields.set(name, kind);
                } else {
                    existingNonFields.set(name, true);
                }
            }

            applyMemberDec(ret, base, decInfo, name, kind, isStatic, isPrivate, initializers, metadata);
        }

        pushInitializers(ret, protoInitializers);
        pushInitializers(ret, staticInitializers);
        return ret;
    }

    function pushInitializers(ret, initializers) {
        if (initializers) {
            ret.push(function(instance) {
                for (var i = 0; i < initializers.length; i++) initializers[i].call(instance);
                return instance;
            });
        }
    }

    function applyClassDecs(targetClass, classDecs, metadata) {
        if (classDecs.length > 0) {
            var initializers = [];
            var newClass = targetClass;
            var name = targetClass.name;

            for (var i = classDecs.length - 1; i >= 0; i--) {
                var decoratorFinishedRef = { v: false };

                var nextNewClass = classDecs[i](newClass, { kind: "class", name: name, addInitializer: createAddInitializerMethod(initializers, decoratorFinishedRef), metadata });
                decoratorFinishedRef.v = true;

                if (nextNewClass !== undefined) {
                    assertValidReturnValue(10, /* CLASS */ nextNewClass);
                    newClass = nextNewClass;
                }
            }

            return [defineMetadata(newClass, metadata), function() {
                for (var i = 0; i < initializers.length; i++) initializers[i].call(newClass);
            }];
        }
        // The transformer will not emit assignment when there are no class decorators,
        // so we don't have to return an empty array here.
    }

    function defineMetadata(Class, metadata) {
        return Object.defineProperty(Class, Symbol.metadata || Symbol.for("Symbol.metadata"), { configurable: true, enumerable: true, value: metadata });
    }

    /**
    Basic usage:

    applyDecs(
      Class,
      [
        // member decorators
        [
          dec,                // dec or array of decs
          0,                  // kind of value being decorated
          'prop',             // name of public prop on class containing the value being decorated,
          '#p',               // the name of the private property (if is private, void 0 otherwise),
        ]
      ],
      [
        // class decorators
        dec1, dec2
      ]
    )
    ```

    Fully transpiled example:

    ```js
    @dec
    class Class {
      @dec
      a = 123;

      @dec
      #a = 123;

      @dec
      @dec2
      accessor b = 123;

      @dec
      accessor #b = 123;

      @dec
      c() { console.log('c'); }

      @dec
      #c() { console.log('privC'); }

      @dec
      get d() { console.log('d'); }

      @dec
      get #d() { console.log('privD'); }

      @dec
      set e(v) { console.log('e'); }

      @dec
      set #e(v) { console.log('privE'); }
    }


    // becomes
    let initializeInstance;
    let initializeClass;

    let initA;
    let initPrivA;

    let initB;
    let initPrivB, getPrivB, setPrivB;

    let privC;
    let privD;
    let privE;

    let Class;
    class _Class {
      static {
        let ret = applyDecs(
          this,
          [
            [dec, 0, 'a'],
            [dec, 0, 'a', (i) => i.#a, (i, v) => i.#a = v],
            [[dec, dec2], 1, 'b'],
            [dec, 1, 'b', (i) => i.#privBData, (i, v) => i.#privBData = v],
            [dec, 2, 'c'],
            [dec, 2, 'c', () => console.log('privC')],
            [dec, 3, 'd'],
            [dec, 3, 'd', () => console.log('privD')],
            [dec, 4, 'e'],
            [dec, 4, 'e', () => console.log('privE')],
          ],
          [
            dec
          ]
        )

        initA = ret[0];

        initPrivA = ret[1];

        initB = ret[2];

        initPrivB = ret[3];
        getPrivB = ret[4];
        setPrivB = ret[5];

        privC = ret[6];

        privD = ret[7];

        privE = ret[8];

        initializeInstance = ret[9];

        Class = ret[10]

        initializeClass = ret[11];
      }

      a = (initializeInstance(this), initA(this, 123));

      #a = initPrivA(this, 123);

      #bData = initB(this, 123);
      get b() { return this.#bData }
      set b(v) { this.#bData = v }

      #privBData = initPrivB(this, 123);
      get #b() { return getPrivB(this); }
      set #b(v) { setPrivB(this, v); }

      c() { console.log('c'); }

      #c(...args) { return privC(this, ...args) }

      get d() { console.log('d'); }

      get #d() { return privD(this); }

      set e(v) { console.log('e'); }

      set #e(v) { privE(this, v); }
    }

    initializeClass(Class);
   */

    exports._ = _apply_decs_2203_r = function(targetClass, memberDecs, classDecs, parentClass) {
        if (parentClass !== void 0) {
            var parentMetadata = parentClass[Symbol.metadata || Symbol.for("Symbol.metadata")];
        }
        var metadata = Object.create(parentMetadata === void 0 ? null : parentMetadata);
        var e = applyMemberDecs(targetClass, memberDecs, metadata);
        if (!classDecs.length) defineMetadata(targetClass, metadata);
        return {
            e: e,
            // Lazily apply class decorations so that member init locals can be properly bound.
            get c() {
                return applyClassDecs(targetClass, classDecs, metadata);
            }
        };
    };

    return _apply_decs_2203_r(targetClass, memberDecs, classDecs, parentClass);
}

exports._ = _apply_decs_2203_r;
"use strict";

/* @minVersion 7.24.0 */

function toPrimitive(input, hint) {
    if (typeof input !== "object" || input === null) {
        return input;
    }

    var prim = input[Symbol.toPrimitive];
    if (prim !== undefined) {
        var res = prim.call(input, hint || "default");
        if (typeof res !== "object") {
            return res;
        }
        throw new TypeError("@@toPrimitive must return a primitive value.");
    }

    return (hint === "string" ? String : Number)(input);
}

function toPropertyKey(arg) {
    var key = toPrimitive(arg, "string");
    return typeof key === "symbol" ? key : String(key);
}

function checkInRHS(value) {
    if (Object(value) !== value) {
        throw TypeError("right-hand side of 'in' should be an object, got " + (value !== null ? typeof value : "null"));
    }

    return value;
}

function setFunctionName(fn, name, prefix) {
    if (typeof name === "symbol") {
        name = name.description;
        name = name ? "[" + name + "]" : "";
    }

    try {
        Object.defineProperty(fn, "name", { configurable: true, value: prefix ? prefix + " " + name : name });
    } catch (_) {}

    return fn;
}

/**
  kind bit layout

  FIELD = 0
  ACCESSOR = 1
  METHOD = 2
  GETTER = 3
  SETTER = 4
  CLASS = 5

  STATIC = 8
  DECORATORS_HAVE_THIS = 16
*/
function _apply_decs_2311(targetClass, classDecs, memberDecs, classDecsHaveThis, instanceBrand, parentClass) {
    var symbolMetadata = Symbol.metadata || Symbol.for("Symbol.metadata");
    var defineProperty = Object.defineProperty;
    var create = Object.create;
    var metadata;
    var existingNonFields = [create(null), create(null)];
    var hasClassDecs = classDecs.length;
    var _;

    function createRunInitializers(initializers, useStaticThis, hasValue) {
        return function(thisArg, value) {
            if (useStaticThis) {
                value = thisArg;
                thisArg = targetClass;
            }

            for (var i = 0; i < initializers.length; i++) value = initializers[i].apply(thisArg, hasValue ? [value] : []);

            return hasValue ? value : thisArg;
        };
    }

    function assertCallable(fn, hint1, hint2, throwUndefined) {
        if (typeof fn !== "function") {
            if (throwUndefined || fn !== void 0) {
                throw new TypeError(hint1 + " must " + (hint2 || "be") + " a function" + (throwUndefined ? "" : " or undefined"));
            }
        }

        return fn;
    }

    function applyDec(Class, decInfo, decoratorsHaveThis, name, kind, initializers, ret, isStatic, isPrivate, isField, hasPrivateBrand) {
        function assertInstanceIfPrivate(target) {
            if (!hasPrivateBrand(target)) {
                throw new TypeError("Attempted to access private element on non-instance");
            }
        }

        var decs = [].concat(decInfo[0]);
        var decVal = decInfo[3];
        var isClass = !ret;

        var isAccessor = kind === 1;
        var isGetter = kind === 3;
        var isSetter = kind === 4;
        var isMethod = kind === 2;

        function bindPropCall(name, useStaticThis, before) {
            return function(_this, value) {
                if (useStaticThis) {
                    value = _this;
                    _this = Class;
                }

                if (before) {
                    before(_this);
                }

                return desc[name].call(_this, value);
            };
        }

        var desc = {};
        var init = [];
        var key = isGetter ? "get" : isSetter || isAccessor ? "set" : "value";

        if (!isClass) {
            if (isPrivate) {
                if (isField || isAccessor) {
                    desc = {
                        get: setFunctionName(
                            function() {
                                return decVal(this);
                            },
                            name,
                            "get"
                        ),
                        set: function(value) {
                            decInfo[4](this, value);
                        }
                    };
                } else {
                    desc[key] = decVal;
                }

                if (!isField) {
                    setFunctionName(desc[key], name, isMethod ? "" : key);
                }
            } else if (!isField) {
                desc = Object.getOwnPropertyDescriptor(Class, name);
            }

            if (!isField && !isPrivate) {
                _ = existingNonFields[+isStatic][name];
                if (_ && (_ ^ kind) !== 7) {
                    throw new Error("Decorating two elements with the same name (" + desc[key].name + ") is not supported yet");
                }

                existingNonFields[+isStatic][name] = kind < 3 ? 1 : kind;
            }
        }

        var newValue = Class;

        for (var i = decs.length - 1; i >= 0; i -= decoratorsHaveThis ? 2 : 1) {
            var dec = assertCallable(decs[i], "A decorator", "be", true);
            var decThis = decoratorsHaveThis ? decs[i - 1] : void 0;

            var decoratorFinishedRef = {};
            var ctx = {
                kind: ["field", "accessor", "method", "getter", "setter", "class"][kind],
                name: name,
                metadata: metadata,
                addInitializer: function(decoratorFinishedRef, initializer) {
                    if (decoratorFinishedRef.v) {
                        throw new TypeError("attempted to call addInitializer after decoration was finished");
                    }
                    assertCallable(initializer, "An initializer", "be", true);
                    initializers.push(initializer);
                }
                    .bind(null, decoratorFinishedRef)
            };

            if (isClass) {
                _ = dec.call(decThis, newValue, ctx);
                decoratorFinishedRef.v = 1;

                if (assertCallable(_, "class decorators", "return")) {
                    newValue = _;
                }
                continue;
            }

            ctx.static = isStatic;
            ctx.private = isPrivate;
            _ = ctx.access = {
                has: isPrivate ? hasPrivateBrand.bind() : function(target) {
                    return name in target;
                }
            };

            if (!isSetter) {
                _.get = isPrivate
                    ? isMethod
                        ? function(_this) {
                            assertInstanceIfPrivate(_this);
                            return desc.value;
                        }
                        : bindPropCall("get", 0, assertInstanceIfPrivate)
                    : function(target) {
                        return target[name];
                    };
            }

            if (!isMethod && !isGetter) {
                _.set = isPrivate ? bindPropCall("set", 0, assertInstanceIfPrivate) : function(target, value) {
                    target[name] = value;
                };
            }

            newValue = dec.call(decThis, isAccessor ? { get: desc.get, set: desc.set } : desc[key], ctx);

            decoratorFinishedRef.v = 1;

            if (isAccessor) {
                if (typeof newValue === "object" && newValue) {
                    if ((_ = assertCallable(newValue.get, "accessor.get"))) {
                        desc.get = _;
                    }
                    if ((_ = assertCallable(newValue.set, "accessor.set"))) {
                        desc.set = _;
                    }
                    if ((_ = assertCallable(newValue.init, "accessor.init"))) {
                        init.unshift(_);
                    }
                } else if (newValue !== void 0) {
                    throw new TypeError("accessor decorators must return an object with get, set, or init properties or undefined");
                }
            } else if (assertCallable(newValue, (isField ? "field" : "method") + " decorators", "return")) {
                if (isField) {
                    init.unshift(newValue);
                } else {
                    desc[key] = newValue;
                }
            }
        }

        if (kind < 2) {
            ret.push(createRunInitializers(init, isStatic, 1), createRunInitializers(initializers, isStatic, 0));
        }

        if (!isField && !isClass) {
            if (isPrivate) {
                if (isAccessor) {
                    ret.splice(-1, 0, bindPropCall("get", isStatic), bindPropCall("set", isStatic));
                } else {
                    ret.push(isMethod ? desc[key] : assertCallable.call.bind(desc[key]));
                }
            } else {
                defineProperty(Class, name, desc);
            }
        }

        return newValue;
    }

    function applyMemberDecs() {
        var ret = [];
        var protoInitializers;
        var staticInitializers;

        var pushInitializers = function(initializers) {
            if (initializers) {
                ret.push(createRunInitializers(initializers));
            }
        };

        var applyMemberDecsOfKind = function(isStatic, isField) {
            for (var i = 0; i < memberDecs.length; i++) {
                var decInfo = memberDecs[i];
                var kind = decInfo[1];
                var kindOnly = kind & 7;

                if ((kind & 8) == isStatic && !kindOnly == isField) {
                    var name = decInfo[2];
                    var isPrivate = !!decInfo[3];
                    var decoratorsHaveThis = kind & 16;

                    applyDec(
                        isStatic ? targetClass : targetClass.prototype,
                        decInfo,
                        decoratorsHaveThis,
                        isPrivate ? "#" + name : toPropertyKey(name),
                        kindOnly,
                        kindOnly < 2 ? [] : isStatic ? (staticInitializers = staticInitializers || []) : (protoInitializers = protoInitializers || []),
                        ret,
                        !!isStatic,
                        isPrivate,
                        isField,
                        isStatic && isPrivate
                            ? function(_) {
                                return checkInRHS(_) === targetClass;
                            }
                            : instanceBrand
                    );
                }
            }
        };

        applyMemberDecsOfKind(8, 0);
        applyMemberDecsOfKind(0, 0);
        applyMemberDecsOfKind(8, 1);
        applyMemberDecsOfKind(0, 1);

        pushInitializers(protoInitializers);
        pushInitializers(staticInitializers);

        return ret;
    }

    function defineMetadata(Class) {
        return defineProperty(Class, symbolMetadata, { configurable: true, enumerable: true, value: metadata });
    }

    if (parentClass !== undefined) {
        metadata = parentClass[symbolMetadata];
    }
    metadata = create(metadata == null ? null : metadata);

    _ = applyMemberDecs();

    if (!hasClassDecs) {
        defineMetadata(targetClass);
    }

    return {
        e: _,
        get c() {
            var initializers = [];
            return (hasClassDecs && [defineMetadata(targetClass = applyDec(targetClass, [classDecs], classDecsHaveThis, targetClass.name, 5, initializers)), createRunInitializers(initializers, 1)]);
        }
    };
}

exports._ = _apply_decs_2311;
"use strict";

function _array_like_to_array(arr, len) {
    if (len == null || len > arr.length) len = arr.length;

    for (var i = 0, arr2 = new Array(len); i < len; i++) arr2[i] = arr[i];

    return arr2;
}
exports._ = _array_like_to_array;
"use strict";

function _array_with_holes(arr) {
    if (Array.isArray(arr)) return arr;
}
exports._ = _array_with_holes;
"use strict";

var _array_like_to_array = require("./_array_like_to_array.cjs");

function _array_without_holes(arr) {
    if (Array.isArray(arr)) return _array_like_to_array._(arr);
}
exports._ = _array_without_holes;
"use strict";

function _assert_this_initialized(self) {
    if (self === void 0) throw new ReferenceError("this hasn't been initialised - super() hasn't been called");

    return self;
}
exports._ = _assert_this_initialized;
"use strict";

var _overload_yield = require("./_overload_yield.cjs");

function _async_generator(gen) {
    var front, back;

    function send(key, arg) {
        return new Promise(function(resolve, reject) {
            var request = { key: key, arg: arg, resolve: resolve, reject: reject, next: null };
            if (back) back = back.next = request;
            else {
                front = back = request;
                resume(key, arg);
            }
        });
    }

    function resume(key, arg) {
        try {
            var result = gen[key](arg);
            var value = result.value;
            var overloaded = value instanceof _overload_yield._;
            Promise.resolve(overloaded ? value.v : value).then(function(arg) {
                if (overloaded) {
                    var nextKey = key === "return" ? "return" : "next";
                    if (!value.k || arg.done) return resume(nextKey, arg);
                    else arg = gen[nextKey](arg).value;
                }
                settle(result.done ? "return" : "normal", arg);
            }, function(err) {
                resume("throw", err);
            });
        } catch (err) {
            settle("throw", err);
        }
    }

    function settle(type, value) {
        switch (type) {
            case "return":
                front.resolve({ value: value, done: true });
                break;
            case "throw":
                front.reject(value);
                break;
            default:
                front.resolve({ value: value, done: false });
                break;
        }
        front = front.next;
        if (front) resume(front.key, front.arg);
        else back = null;
    }

    this._invoke = send;

    if (typeof gen.return !== "function") this.return = undefined;
}

_async_generator.prototype[(typeof Symbol === "function" && Symbol.asyncIterator) || "@@asyncIterator"] = function() {
    return this;
};

_async_generator.prototype.next = function(arg) {
    return this._invoke("next", arg);
};

_async_generator.prototype.throw = function(arg) {
    return this._invoke("throw", arg);
};

_async_generator.prototype.return = function(arg) {
    return this._invoke("return", arg);
};
exports._ = _async_generator;
"use strict";

var _overload_yield = require("./_overload_yield.cjs");

function _async_generator_delegate(inner) {
    var iter = {}, waiting = false;

    function pump(key, value) {
        waiting = true;
        value = new Promise(function(resolve) {
            resolve(inner[key](value));
        });

        return { done: false, value: new _overload_yield._(value, /* kind: delegate */ 1) };
    }

    iter[(typeof Symbol !== "undefined" && Symbol.iterator) || "@@iterator"] = function() {
        return this;
    };

    iter.next = function(value) {
        if (waiting) {
            waiting = false;

            return value;
        }

        return pump("next", value);
    };

    if (typeof inner.throw === "function") {
        iter.throw = function(value) {
            if (waiting) {
                waiting = false;
                throw value;
            }

            return pump("throw", value);
        };
    }
    if (typeof inner.return === "function") {
        iter.return = function(value) {
            if (waiting) {
                waiting = false;
                return value;
            }
            return pump("return", value);
        };
    }

    return iter;
}
exports._ = _async_generator_delegate;
"use strict";

function _async_iterator(iterable) {
    var method, async, sync, retry = 2;
    for ("undefined" != typeof Symbol && (async = Symbol.asyncIterator, sync = Symbol.iterator); retry--;) {
        if (async && null != (method = iterable[async])) return method.call(iterable);
        if (sync && null != (method = iterable[sync])) return new AsyncFromSyncIterator(method.call(iterable));
        async = "@@asyncIterator", sync = "@@iterator";
    }
    throw new TypeError("Object is not async iterable");
}
function AsyncFromSyncIterator(s) {
    function AsyncFromSyncIteratorContinuation(r) {
        if (Object(r) !== r) return Promise.reject(new TypeError(r + " is not an object."));

        var done = r.done;

        return Promise.resolve(r.value).then(function(value) {
            return { value: value, done: done };
        });
    }

    return AsyncFromSyncIterator = function(s) {
        this.s = s, this.n = s.next;
    },
        AsyncFromSyncIterator.prototype = {
            s: null,
            n: null,

            next: function() {
                return AsyncFromSyncIteratorContinuation(this.n.apply(this.s, arguments));
            },
            return: function(value) {
                var ret = this.s.return;

                return void 0 === ret ? Promise.resolve({ value: value, done: !0 }) : AsyncFromSyncIteratorContinuation(ret.apply(this.s, arguments));
            },
            throw: function(value) {
                var thr = this.s.return;

                return void 0 === thr ? Promise.reject(value) : AsyncFromSyncIteratorContinuation(thr.apply(this.s, arguments));
            }
        },
        new AsyncFromSyncIterator(s);
}
exports._ = _async_iterator;
"use strict";

function asyncGeneratorStep(gen, resolve, reject, _next, _throw, key, arg) {
    try {
        var info = gen[key](arg);
        var value = info.value;
    } catch (error) {
        reject(error);
        return;
    }
    if (info.done) resolve(value);
    else Promise.resolve(value).then(_next, _throw);
}
function _async_to_generator(fn) {
    return function() {
        var self = this, args = arguments;

        return new Promise(function(resolve, reject) {
            var gen = fn.apply(self, args);

            function _next(value) {
                asyncGeneratorStep(gen, resolve, reject, _next, _throw, "next", value);
            }

            function _throw(err) {
                asyncGeneratorStep(gen, resolve, reject, _next, _throw, "throw", err);
            }

            _next(undefined);
        });
    };
}
exports._ = _async_to_generator;
"use strict";

var _overload_yield = require("./_overload_yield.cjs");

function _await_async_generator(value) {
    return new _overload_yield._(value, /* kind: await */ 0);
}
exports._ = _await_async_generator;
"use strict";

function _await_value(value) {
    this.wrapped = value;
}
exports._ = _await_value;
"use strict";

var _get_prototype_of = require("./_get_prototype_of.cjs");
var _is_native_reflect_construct = require("./_is_native_reflect_construct.cjs");
var _possible_constructor_return = require("./_possible_constructor_return.cjs");

function _call_super(_this, derived, args) {
    // Super
    derived = _get_prototype_of._(derived);
    return _possible_constructor_return._(
        _this,
        _is_native_reflect_construct._()
            // NOTE: This doesn't work if this.__proto__.constructor has been modified.
            ? Reflect.construct(derived, args || [], _get_prototype_of._(_this).constructor)
            : derived.apply(_this, args)
    );
}

exports._ = _call_super;
"use strict";

function _check_private_redeclaration(obj, privateCollection) {
    if (privateCollection.has(obj)) {
        throw new TypeError("Cannot initialize the same private elements twice on an object");
    }
}
exports._ = _check_private_redeclaration;
"use strict";

function _class_apply_descriptor_destructure(receiver, descriptor) {
    if (descriptor.set) {
        if (!("__destrObj" in descriptor)) {
            descriptor.__destrObj = {
                set value(v) {
                    descriptor.set.call(receiver, v);
                }
            };
        }

        return descriptor.__destrObj;
    } else {
        if (!descriptor.writable) {
            // This should only throw in strict mode, but class bodies are
            // always strict and private fields can only be used inside
            // class bodies.
            throw new TypeError("attempted to set read only private field");
        }

        return descriptor;
    }
}
exports._ = _class_apply_descriptor_destructure;
"use strict";

function _class_apply_descriptor_get(receiver, descriptor) {
    if (descriptor.get) return descriptor.get.call(receiver);

    return descriptor.value;
}
exports._ = _class_apply_descriptor_get;
"use strict";

function _class_apply_descriptor_set(receiver, descriptor, value) {
    if (descriptor.set) descriptor.set.call(receiver, value);
    else {
        if (!descriptor.writable) {
            // This should only throw in strict mode, but class bodies are
            // always strict and private fields can only be used inside
            // class bodies.
            throw new TypeError("attempted to set read only private field");
        }
        descriptor.value = value;
    }
}
exports._ = _class_apply_descriptor_set;
"use strict";

function _class_apply_descriptor_update(receiver, descriptor) {
    if (descriptor.set) {
        if (!descriptor.get) throw new TypeError("attempted to read set only private field");

        if (!("__destrWrapper" in descriptor)) {
            descriptor.__destrWrapper = {
                set value(v) {
                    descriptor.set.call(receiver, v);
                },
                get value() {
                    return descriptor.get.call(receiver);
                }
            };
        }

        return descriptor.__destrWrapper;
    } else {
        if (!descriptor.writable) {
            // This should only throw in strict mode, but class bodies are
            // always strict and private fields can only be used inside
            // class bodies.
            throw new TypeError("attempted to set read only private field");
        }

        return descriptor;
    }
}
exports._ = _class_apply_descriptor_update;
"use strict";

function _class_call_check(instance, Constructor) {
    if (!(instance instanceof Constructor)) throw new TypeError("Cannot call a class as a function");
}
exports._ = _class_call_check;
"use strict";

function _class_check_private_static_access(receiver, classConstructor) {
    if (receiver !== classConstructor) throw new TypeError("Private static access of wrong provenance");
}
exports._ = _class_check_private_static_access;
"use strict";

function _class_check_private_static_field_descriptor(descriptor, action) {
    if (descriptor === undefined) {
        throw new TypeError("attempted to " + action + " private static field before its declaration");
    }
}
exports._ = _class_check_private_static_field_descriptor;
"use strict";

function _class_extract_field_descriptor(receiver, privateMap, action) {
    if (!privateMap.has(receiver)) throw new TypeError("attempted to " + action + " private field on non-instance");

    return privateMap.get(receiver);
}
exports._ = _class_extract_field_descriptor;
"use strict";

function _class_name_tdz_error(name) {
    throw new ReferenceError("Class \"" + name + "\" cannot be referenced in computed property keys.");
}
exports._ = _class_name_tdz_error;
"use strict";

var _class_apply_descriptor_destructure = require("./_class_apply_descriptor_destructure.cjs");
var _class_extract_field_descriptor = require("./_class_extract_field_descriptor.cjs");

function _class_private_field_destructure(receiver, privateMap) {
    var descriptor = _class_extract_field_descriptor._(receiver, privateMap, "set");
    return _class_apply_descriptor_destructure._(receiver, descriptor);
}
exports._ = _class_private_field_destructure;
"use strict";

var _class_apply_descriptor_get = require("./_class_apply_descriptor_get.cjs");
var _class_extract_field_descriptor = require("./_class_extract_field_descriptor.cjs");

function _class_private_field_get(receiver, privateMap) {
    var descriptor = _class_extract_field_descriptor._(receiver, privateMap, "get");
    return _class_apply_descriptor_get._(receiver, descriptor);
}
exports._ = _class_private_field_get;
"use strict";

var _check_private_redeclaration = require("./_check_private_redeclaration.cjs");

function _class_private_field_init(obj, privateMap, value) {
    _check_private_redeclaration._(obj, privateMap);
    privateMap.set(obj, value);
}
exports._ = _class_private_field_init;
"use strict";

function _class_private_field_loose_base(receiver, privateKey) {
    if (!Object.prototype.hasOwnProperty.call(receiver, privateKey)) {
        throw new TypeError("attempted to use private field on non-instance");
    }

    return receiver;
}
exports._ = _class_private_field_loose_base;
"use strict";

var id = 0;

function _class_private_field_loose_key(name) {
    return "__private_" + id++ + "_" + name;
}
exports._ = _class_private_field_loose_key;
"use strict";

var _class_apply_descriptor_set = require("./_class_apply_descriptor_set.cjs");
var _class_extract_field_descriptor = require("./_class_extract_field_descriptor.cjs");

function _class_private_field_set(receiver, privateMap, value) {
    var descriptor = _class_extract_field_descriptor._(receiver, privateMap, "set");
    _class_apply_descriptor_set._(receiver, descriptor, value);
    return value;
}
exports._ = _class_private_field_set;
"use strict";

var _class_apply_descriptor_update = require("./_class_apply_descriptor_update.cjs");
var _class_extract_field_descriptor = require("./_class_extract_field_descriptor.cjs");

function _class_private_field_update(receiver, privateMap) {
    var descriptor = _class_extract_field_descriptor._(receiver, privateMap, "update");
    return _class_apply_descriptor_update._(receiver, descriptor);
}
exports._ = _class_private_field_update;
"use strict";

function _class_private_method_get(receiver, privateSet, fn) {
    if (!privateSet.has(receiver)) throw new TypeError("attempted to get private field on non-instance");

    return fn;
}
exports._ = _class_private_method_get;
"use strict";

var _check_private_redeclaration = require("./_check_private_redeclaration.cjs");

function _class_private_method_init(obj, privateSet) {
    _check_private_redeclaration._(obj, privateSet);
    privateSet.add(obj);
}
exports._ = _class_private_method_init;
"use strict";

function _class_private_method_set() {
    throw new TypeError("attempted to reassign private method");
}
exports._ = _class_private_method_set;
"use strict";

var _class_apply_descriptor_destructure = require("./_class_apply_descriptor_destructure.cjs");
var _class_check_private_static_access = require("./_class_check_private_static_access.cjs");
var _class_check_private_static_field_descriptor = require("./_class_check_private_static_field_descriptor.cjs");

function _class_static_private_field_destructure(receiver, classConstructor, descriptor) {
    _class_check_private_static_access._(receiver, classConstructor);
    _class_check_private_static_field_descriptor._(descriptor, "set");

    return _class_apply_descriptor_destructure._(receiver, descriptor);
}
exports._ = _class_static_private_field_destructure;
"use strict";

var _class_apply_descriptor_get = require("./_class_apply_descriptor_get.cjs");
var _class_check_private_static_access = require("./_class_check_private_static_access.cjs");
var _class_check_private_static_field_descriptor = require("./_class_check_private_static_field_descriptor.cjs");

function _class_static_private_field_spec_get(receiver, classConstructor, descriptor) {
    _class_check_private_static_access._(receiver, classConstructor);
    _class_check_private_static_field_descriptor._(descriptor, "get");

    return _class_apply_descriptor_get._(receiver, descriptor);
}
exports._ = _class_static_private_field_spec_get;
"use strict";

var _class_apply_descriptor_set = require("./_class_apply_descriptor_set.cjs");
var _class_check_private_static_access = require("./_class_check_private_static_access.cjs");
var _class_check_private_static_field_descriptor = require("./_class_check_private_static_field_descriptor.cjs");

function _class_static_private_field_spec_set(receiver, classConstructor, descriptor, value) {
    _class_check_private_static_access._(receiver, classConstructor);
    _class_check_private_static_field_descriptor._(descriptor, "set");
    _class_apply_descriptor_set._(receiver, descriptor, value);

    return value;
}
exports._ = _class_static_private_field_spec_set;
"use strict";

var _class_apply_descriptor_update = require("./_class_apply_descriptor_update.cjs");
var _class_check_private_static_access = require("./_class_check_private_static_access.cjs");
var _class_check_private_static_field_descriptor = require("./_class_check_private_static_field_descriptor.cjs");

function _class_static_private_field_update(receiver, classConstructor, descriptor) {
    _class_check_private_static_access._(receiver, classConstructor);
    _class_check_private_static_field_descriptor._(descriptor, "update");

    return _class_apply_descriptor_update._(receiver, descriptor);
}
exports._ = _class_static_private_field_update;
"use strict";

var _class_check_private_static_access = require("./_class_check_private_static_access.cjs");

function _class_static_private_method_get(receiver, classConstructor, method) {
    _class_check_private_static_access._(receiver, classConstructor);

    return method;
}
exports._ = _class_static_private_method_get;
"use strict";

var _is_native_reflect_construct = require("./_is_native_reflect_construct.cjs");
var _set_prototype_of = require("./_set_prototype_of.cjs");
function _construct(Parent, args, Class) {
    if (_is_native_reflect_construct._()) exports._ = _construct = Reflect.construct;
    else {
        exports._ = _construct = function construct(Parent, args, Class) {
            var a = [null];
            a.push.apply(a, args);
            var Constructor = Function.bind.apply(Parent, a);
            var instance = new Constructor();

            if (Class) _set_prototype_of._(instance, Class.prototype);

            return instance;
        };
    }

    return _construct.apply(null, arguments);
}
exports._ = _construct;
"use strict";

function _defineProperties(target, props) {
    for (var i = 0; i < props.length; i++) {
        var descriptor = props[i];
        descriptor.enumerable = descriptor.enumerable || false;
        descriptor.configurable = true;

        if ("value" in descriptor) descriptor.writable = true;

        Object.defineProperty(target, descriptor.key, descriptor);
    }
}
function _create_class(Constructor, protoProps, staticProps) {
    if (protoProps) _defineProperties(Constructor.prototype, protoProps);
    if (staticProps) _defineProperties(Constructor, staticProps);

    return Constructor;
}
exports._ = _create_class;
"use strict";

var _unsupported_iterable_to_array = require("./_unsupported_iterable_to_array.cjs");

function _create_for_of_iterator_helper_loose(o, allowArrayLike) {
    var it = typeof Symbol !== "undefined" && o[Symbol.iterator] || o["@@iterator"];

    if (it) return (it = it.call(o)).next.bind(it);
    // Fallback for engines without symbol support
    if (Array.isArray(o) || (it = _unsupported_iterable_to_array._(o)) || allowArrayLike && o && typeof o.length === "number") {
        if (it) o = it;

        var i = 0;

        return function() {
            if (i >= o.length) return { done: true };

            return { done: false, value: o[i++] };
        };
    }

    throw new TypeError("Invalid attempt to iterate non-iterable instance.\nIn order to be iterable, non-array objects must have a [Symbol.iterator]() method.");
}
exports._ = _create_for_of_iterator_helper_loose;
"use strict";

var _get_prototype_of = require("./_get_prototype_of.cjs");
var _is_native_reflect_construct = require("./_is_native_reflect_construct.cjs");
var _possible_constructor_return = require("./_possible_constructor_return.cjs");

function _create_super(Derived) {
    var hasNativeReflectConstruct = _is_native_reflect_construct._();

    return function _createSuperInternal() {
        var Super = _get_prototype_of._(Derived), result;

        if (hasNativeReflectConstruct) {
            var NewTarget = _get_prototype_of._(this).constructor;
            result = Reflect.construct(Super, arguments, NewTarget);
        } else {
            result = Super.apply(this, arguments);
        }

        return _possible_constructor_return._(this, result);
    };
}
exports._ = _create_super;
"use strict";

var _to_array = require("./_to_array.cjs");
var _to_property_key = require("./_to_property_key.cjs");
var _type_of = require("./_type_of.cjs");

function _decorate(decorators, factory, superClass) {
    var r = factory(function initialize(O) {
        _initializeInstanceElements(O, decorated.elements);
    }, superClass);
    var decorated = _decorateClass(_coalesceClassElements(r.d.map(_createElementDescriptor)), decorators);
    _initializeClassElements(r.F, decorated.elements);

    return _runClassFinishers(r.F, decorated.finishers);
}

function _createElementDescriptor(def) {
    var key = _to_property_key._(def.key);
    var descriptor;

    if (def.kind === "method") {
        descriptor = { value: def.value, writable: true, configurable: true, enumerable: false };
        Object.defineProperty(def.value, "name", { value: _type_of._(key) === "symbol" ? "" : key, configurable: true });
    } else if (def.kind === "get") descriptor = { get: def.value, configurable: true, enumerable: false };
    else if (def.kind === "set") descriptor = { set: def.value, configurable: true, enumerable: false };
    else if (def.kind === "field") descriptor = { configurable: true, writable: true, enumerable: true };

    var element = { kind: def.kind === "field" ? "field" : "method", key: key, placement: def.static ? "static" : def.kind === "field" ? "own" : "prototype", descriptor: descriptor };

    if (def.decorators) element.decorators = def.decorators;

    if (def.kind === "field") element.initializer = def.value;

    return element;
}
function _coalesceGetterSetter(element, other) {
    if (element.descriptor.get !== undefined) other.descriptor.get = element.descriptor.get;
    else other.descriptor.set = element.descriptor.set;
}
function _coalesceClassElements(elements) {
    var newElements = [];
    var isSameElement = function isSameElement(other) {
        return other.kind === "method" && other.key === element.key && other.placement === element.placement;
    };

    for (var i = 0; i < elements.length; i++) {
        var element = elements[i];
        var other;

        if (element.kind === "method" && (other = newElements.find(isSameElement))) {
            if (_isDataDescriptor(element.descriptor) || _isDataDescriptor(other.descriptor)) {
                if (_hasDecorators(element) || _hasDecorators(other)) {
                    throw new ReferenceError("Duplicated methods (" + element.key + ") can't be decorated.");
                }
                other.descriptor = element.descriptor;
            } else {
                if (_hasDecorators(element)) {
                    if (_hasDecorators(other)) {
                        throw new ReferenceError("Decorators can't be placed on different accessors with for " + "the same property (" + element.key + ").");
                    }
                    other.decorators = element.decorators;
                }
                _coalesceGetterSetter(element, other);
            }
        } else {
            newElements.push(element);
        }
    }

    return newElements;
}
function _hasDecorators(element) {
    return element.decorators && element.decorators.length;
}
function _isDataDescriptor(desc) {
    return desc !== undefined && !(desc.value === undefined && desc.writable === undefined);
}
function _initializeClassElements(F, elements) {
    var proto = F.prototype;
    ["method", "field"].forEach(function(kind) {
        elements.forEach(function(element) {
            var placement = element.placement;
            if (element.kind === kind && (placement === "static" || placement === "prototype")) {
                var receiver = placement === "static" ? F : proto;
                _defineClassElement(receiver, element);
            }
        });
    });
}
function _initializeInstanceElements(O, elements) {
    ["method", "field"].forEach(function(kind) {
        elements.forEach(function(element) {
            if (element.kind === kind && element.placement === "own") _defineClassElement(O, element);
        });
    });
}
function _defineClassElement(receiver, element) {
    var descriptor = element.descriptor;
    if (element.kind === "field") {
        var initializer = element.initializer;
        descriptor = { enumerable: descriptor.enumerable, writable: descriptor.writable, configurable: descriptor.configurable, value: initializer === void 0 ? void 0 : initializer.call(receiver) };
    }
    Object.defineProperty(receiver, element.key, descriptor);
}
function _decorateClass(elements, decorators) {
    var newElements = [];
    var finishers = [];
    var placements = { static: [], prototype: [], own: [] };
    elements.forEach(function(element) {
        _addElementPlacement(element, placements);
    });
    elements.forEach(function(element) {
        if (!_hasDecorators(element)) return newElements.push(element);
        var elementFinishersExtras = _decorateElement(element, placements);
        newElements.push(elementFinishersExtras.element);
        newElements.push.apply(newElements, elementFinishersExtras.extras);
        finishers.push.apply(finishers, elementFinishersExtras.finishers);
    });
    if (!decorators) return { elements: newElements, finishers: finishers };
    var result = _decorateConstructor(newElements, decorators);
    finishers.push.apply(finishers, result.finishers);
    result.finishers = finishers;

    return result;
}
function _addElementPlacement(element, placements, silent) {
    var keys = placements[element.placement];
    if (!silent && keys.indexOf(element.key) !== -1) throw new TypeError("Duplicated element (" + element.key + ")");
    keys.push(element.key);
}
function _decorateElement(element, placements) {
    var extras = [];
    var finishers = [];
    for (var decorators = element.decorators, i = decorators.length - 1; i >= 0; i--) {
        var keys = placements[element.placement];
        keys.splice(keys.indexOf(element.key), 1);
        var elementObject = _fromElementDescriptor(element);
        var elementFinisherExtras = _toElementFinisherExtras((0, decorators[i])(elementObject) || elementObject);
        element = elementFinisherExtras.element;
        _addElementPlacement(element, placements);
        if (elementFinisherExtras.finisher) finishers.push(elementFinisherExtras.finisher);
        var newExtras = elementFinisherExtras.extras;
        if (newExtras) {
            for (var j = 0; j < newExtras.length; j++) _addElementPlacement(newExtras[j], placements);
            extras.push.apply(extras, newExtras);
        }
    }

    return { element: element, finishers: finishers, extras: extras };
}
function _decorateConstructor(elements, decorators) {
    var finishers = [];
    for (var i = decorators.length - 1; i >= 0; i--) {
        var obj = _fromClassDescriptor(elements);
        var elementsAndFinisher = _toClassDescriptor((0, decorators[i])(obj) || obj);
        if (elementsAndFinisher.finisher !== undefined) finishers.push(elementsAndFinisher.finisher);
        if (elementsAndFinisher.elements !== undefined) {
            elements = elementsAndFinisher.elements;
            for (var j = 0; j < elements.length - 1; j++) {
                for (var k = j + 1; k < elements.length; k++) {
                    if (elements[j].key === elements[k].key && elements[j].placement === elements[k].placement) {
                        throw new TypeError("Duplicated element (" + elements[j].key + ")");
                    }
                }
            }
        }
    }

    return { elements: elements, finishers: finishers };
}
function _fromElementDescriptor(element) {
    var obj = { kind: element.kind, key: element.key, placement: element.placement, descriptor: element.descriptor };
    var desc = { value: "Descriptor", configurable: true };
    Object.defineProperty(obj, Symbol.toStringTag, desc);
    if (element.kind === "field") obj.initializer = element.initializer;

    return obj;
}
function _toElementDescriptors(elementObjects) {
    if (elementObjects === undefined) return;

    return _to_array._(elementObjects).map(function(elementObject) {
        var element = _toElementDescriptor(elementObject);
        _disallowProperty(elementObject, "finisher", "An element descriptor");
        _disallowProperty(elementObject, "extras", "An element descriptor");

        return element;
    });
}
function _toElementDescriptor(elementObject) {
    var kind = String(elementObject.kind);
    if (kind !== "method" && kind !== "field") {
        throw new TypeError("An element descriptor's .kind property must be either \"method\" or" + " \"field\", but a decorator created an element descriptor with" + " .kind \"" + kind + "\"");
    }
    var key = _to_property_key._(elementObject.key);
    var placement = String(elementObject.placement);
    if (placement !== "static" && placement !== "prototype" && placement !== "own") {
        throw new TypeError(
            "An element descriptor's .placement property must be one of \"static\","
                + " \"prototype\" or \"own\", but a decorator created an element descriptor"
                + " with .placement \""
                + placement
                + "\""
        );
    }
    var descriptor = elementObject.descriptor;
    _disallowProperty(elementObject, "elements", "An element descriptor");
    var element = { kind: kind, key: key, placement: placement, descriptor: Object.assign({}, descriptor) };
    if (kind !== "field") _disallowProperty(elementObject, "initializer", "A method descriptor");
    else {
        _disallowProperty(descriptor, "get", "The property descriptor of a field descriptor");
        _disallowProperty(descriptor, "set", "The property descriptor of a field descriptor");
        _disallowProperty(descriptor, "value", "The property descriptor of a field descriptor");
        element.initializer = elementObject.initializer;
    }

    return element;
}
function _toElementFinisherExtras(elementObject) {
    var element = _toElementDescriptor(elementObject);
    var finisher = _optionalCallableProperty(elementObject, "finisher");
    var extras = _toElementDescriptors(elementObject.extras);

    return { element: element, finisher: finisher, extras: extras };
}
function _fromClassDescriptor(elements) {
    var obj = { kind: "class", elements: elements.map(_fromElementDescriptor) };
    var desc = { value: "Descriptor", configurable: true };
    Object.defineProperty(obj, Symbol.toStringTag, desc);

    return obj;
}
function _toClassDescriptor(obj) {
    var kind = String(obj.kind);
    if (kind !== "class") {
        throw new TypeError("A class descriptor's .kind property must be \"class\", but a decorator" + " created a class descriptor with .kind \"" + kind + "\"");
    }
    _disallowProperty(obj, "key", "A class descriptor");
    _disallowProperty(obj, "placement", "A class descriptor");
    _disallowProperty(obj, "descriptor", "A class descriptor");
    _disallowProperty(obj, "initializer", "A class descriptor");
    _disallowProperty(obj, "extras", "A class descriptor");
    var finisher = _optionalCallableProperty(obj, "finisher");
    var elements = _toElementDescriptors(obj.elements);

    return { elements: elements, finisher: finisher };
}
function _disallowProperty(obj, name, objectType) {
    if (obj[name] !== undefined) throw new TypeError(objectType + " can't have a ." + name + " property.");
}
function _optionalCallableProperty(obj, name) {
    var value = obj[name];
    if (value !== undefined && typeof value !== "function") {
        throw new TypeError("Expected '" + name + "' to be a function");
    }

    return value;
}
function _runClassFinishers(constructor, finishers) {
    for (var i = 0; i < finishers.length; i++) {
        var newConstructor = (0, finishers[i])(constructor);
        if (newConstructor !== undefined) {
            if (typeof newConstructor !== "function") throw new TypeError("Finishers must return a constructor.");
            constructor = newConstructor;
        }
    }

    return constructor;
}
exports._ = _decorate;
"use strict";

function _defaults(obj, defaults) {
    var keys = Object.getOwnPropertyNames(defaults);

    for (var i = 0; i < keys.length; i++) {
        var key = keys[i];
        var value = Object.getOwnPropertyDescriptor(defaults, key);

        if (value && value.configurable && obj[key] === undefined) Object.defineProperty(obj, key, value);
    }

    return obj;
}
exports._ = _defaults;
"use strict";

function _define_enumerable_properties(obj, descs) {
    for (var key in descs) {
        var desc = descs[key];
        desc.configurable = desc.enumerable = true;

        if ("value" in desc) desc.writable = true;

        Object.defineProperty(obj, key, desc);
    }

    if (Object.getOwnPropertySymbols) {
        var objectSymbols = Object.getOwnPropertySymbols(descs);
        for (var i = 0; i < objectSymbols.length; i++) {
            var sym = objectSymbols[i];
            var desc = descs[sym];
            desc.configurable = desc.enumerable = true;
            if ("value" in desc) desc.writable = true;
            Object.defineProperty(obj, sym, desc);
        }
    }

    return obj;
}
exports._ = _define_enumerable_properties;
"use strict";

function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, { value: value, enumerable: true, configurable: true, writable: true });
    } else obj[key] = value;

    return obj;
}
exports._ = _define_property;
"use strict";

/* @minVersion 7.22.0 */
function dispose_SuppressedError(error, suppressed) {
    if (typeof SuppressedError !== "undefined") {
        // eslint-disable-next-line no-undef
        dispose_SuppressedError = SuppressedError;
    } else {
        dispose_SuppressedError = function SuppressedError(error, suppressed) {
            this.suppressed = suppressed;
            this.error = error;
            this.stack = new Error().stack;
        };
        dispose_SuppressedError.prototype = Object.create(Error.prototype, { constructor: { value: dispose_SuppressedError, writable: true, configurable: true } });
    }
    return new dispose_SuppressedError(error, suppressed);
}

function _dispose(stack, error, hasError) {
    function next() {
        while (stack.length > 0) {
            try {
                var r = stack.pop();
                var p = r.d.call(r.v);
                if (r.a) return Promise.resolve(p).then(next, err);
            } catch (e) {
                return err(e);
            }
        }
        if (hasError) throw error;
    }

    function err(e) {
        error = hasError ? new dispose_SuppressedError(e, error) : e;
        hasError = true;

        return next();
    }

    return next();
}

exports._ = _dispose;
"use strict";

function _export_star(from, to) {
    Object.keys(from).forEach(function(k) {
        if (k !== "default" && !Object.prototype.hasOwnProperty.call(to, k)) {
            Object.defineProperty(to, k, {
                enumerable: true,
                get: function() {
                    return from[k];
                }
            });
        }
    });

    return from;
}
exports._ = _export_star;
"use strict";

function _extends() {
    exports._ = _extends = Object.assign || function assign(target) {
        for (var i = 1; i < arguments.length; i++) {
            var source = arguments[i];
            for (var key in source) if (Object.prototype.hasOwnProperty.call(source, key)) target[key] = source[key];
        }

        return target;
    };

    return _extends.apply(this, arguments);
}
exports._ = _extends;
"use strict";

var _super_prop_base = require("./_super_prop_base.cjs");

function _get(target, property, receiver) {
    if (typeof Reflect !== "undefined" && Reflect.get) exports._ = _get = Reflect.get;
    else {
        exports._ = _get = function get(target, property, receiver) {
            var base = _super_prop_base._(target, property);

            if (!base) return;

            var desc = Object.getOwnPropertyDescriptor(base, property);

            if (desc.get) return desc.get.call(receiver || target);

            return desc.value;
        };
    }

    return _get(target, property, receiver || target);
}
exports._ = _get;
"use strict";

function _get_prototype_of(o) {
    exports._ = _get_prototype_of = Object.setPrototypeOf ? Object.getPrototypeOf : function getPrototypeOf(o) {
        return o.__proto__ || Object.getPrototypeOf(o);
    };

    return _get_prototype_of(o);
}
exports._ = _get_prototype_of;
"use strict";

function _identity(x) {
    return x;
}

exports._ = _identity;
"use strict";

var _set_prototype_of = require("./_set_prototype_of.cjs");

function _inherits(subClass, superClass) {
    if (typeof superClass !== "function" && superClass !== null) {
        throw new TypeError("Super expression must either be null or a function");
    }

    subClass.prototype = Object.create(superClass && superClass.prototype, { constructor: { value: subClass, writable: true, configurable: true } });

    if (superClass) _set_prototype_of._(subClass, superClass);
}
exports._ = _inherits;
"use strict";

function _inherits_loose(subClass, superClass) {
    subClass.prototype = Object.create(superClass.prototype);
    subClass.prototype.constructor = subClass;
    subClass.__proto__ = superClass;
}
exports._ = _inherits_loose;
"use strict";

function _initializer_define_property(target, property, descriptor, context) {
    if (!descriptor) return;

    Object.defineProperty(target, property, {
        enumerable: descriptor.enumerable,
        configurable: descriptor.configurable,
        writable: descriptor.writable,
        value: descriptor.initializer ? descriptor.initializer.call(context) : void 0
    });
}
exports._ = _initializer_define_property;
"use strict";

function _initializer_warning_helper(descriptor, context) {
    throw new Error(
        "Decorating class property failed. Please ensure that "
            + "proposal-class-properties is enabled and set to use loose mode. "
            + "To use proposal-class-properties in spec mode with decorators, wait for "
            + "the next major version of decorators in stage 2."
    );
}
exports._ = _initializer_warning_helper;
"use strict";

function _instanceof(left, right) {
    "@swc/helpers - instanceof";

    if (right != null && typeof Symbol !== "undefined" && right[Symbol.hasInstance]) {
        return !!right[Symbol.hasInstance](left);
    } else return left instanceof right;
}
exports._ = _instanceof;
"use strict";

function _interop_require_default(obj) {
    return obj && obj.__esModule ? obj : { default: obj };
}
exports._ = _interop_require_default;
"use strict";

function _getRequireWildcardCache(nodeInterop) {
    if (typeof WeakMap !== "function") return null;

    var cacheBabelInterop = new WeakMap();
    var cacheNodeInterop = new WeakMap();

    return (_getRequireWildcardCache = function(nodeInterop) {
        return nodeInterop ? cacheNodeInterop : cacheBabelInterop;
    })(nodeInterop);
}
function _interop_require_wildcard(obj, nodeInterop) {
    if (!nodeInterop && obj && obj.__esModule) return obj;
    if (obj === null || typeof obj !== "object" && typeof obj !== "function") return { default: obj };

    var cache = _getRequireWildcardCache(nodeInterop);

    if (cache && cache.has(obj)) return cache.get(obj);

    var newObj = { __proto__: null };
    var hasPropertyDescriptor = Object.defineProperty && Object.getOwnPropertyDescriptor;

    for (var key in obj) {
        if (key !== "default" && Object.prototype.hasOwnProperty.call(obj, key)) {
            var desc = hasPropertyDescriptor ? Object.getOwnPropertyDescriptor(obj, key) : null;
            if (desc && (desc.get || desc.set)) Object.defineProperty(newObj, key, desc);
            else newObj[key] = obj[key];
        }
    }

    newObj.default = obj;

    if (cache) cache.set(obj, newObj);

    return newObj;
}
exports._ = _interop_require_wildcard;
"use strict";

function _is_native_function(fn) {
    return Function.toString.call(fn).indexOf("[native code]") !== -1;
}
exports._ = _is_native_function;
"use strict";

function _is_native_reflect_construct() {
    // Since Reflect.construct can't be properly polyfilled, some
    // implementations (e.g. core-js@2) don't set the correct internal slots.
    // Those polyfills don't allow us to subclass built-ins, so we need to
    // use our fallback implementation.
    try {
        // If the internal slots aren't set, this throws an error similar to
        //   TypeError: this is not a Boolean object.
        var result = !Boolean.prototype.valueOf.call(Reflect.construct(Boolean, [], function() {}));
    } catch (_) {}
    return (exports._ = _is_native_reflect_construct = function() {
        return !!result;
    })();
}

exports._ = _is_native_reflect_construct;
"use strict";

function _iterable_to_array(iter) {
    if (typeof Symbol !== "undefined" && iter[Symbol.iterator] != null || iter["@@iterator"] != null) {
        return Array.from(iter);
    }
}
exports._ = _iterable_to_array;
"use strict";

function _iterable_to_array_limit(arr, i) {
    var _i = arr == null ? null : typeof Symbol !== "undefined" && arr[Symbol.iterator] || arr["@@iterator"];

    if (_i == null) return;

    var _arr = [];
    var _n = true;
    var _d = false;
    var _s, _e;

    try {
        for (_i = _i.call(arr); !(_n = (_s = _i.next()).done); _n = true) {
            _arr.push(_s.value);
            if (i && _arr.length === i) break;
        }
    } catch (err) {
        _d = true;
        _e = err;
    } finally {
        try {
            if (!_n && _i["return"] != null) _i["return"]();
        } finally {
            if (_d) throw _e;
        }
    }

    return _arr;
}
exports._ = _iterable_to_array_limit;
"use strict";

function _iterable_to_array_limit_loose(arr, i) {
    var _i = arr && (typeof Symbol !== "undefined" && arr[Symbol.iterator] || arr["@@iterator"]);

    if (_i == null) return;

    var _arr = [];

    for (_i = _i.call(arr), _step; !(_step = _i.next()).done;) {
        _arr.push(_step.value);
        if (i && _arr.length === i) break;
    }

    return _arr;
}
exports._ = _iterable_to_array_limit_loose;
"use strict";

function _new_arrow_check(innerThis, boundThis) {
    if (innerThis !== boundThis) throw new TypeError("Cannot instantiate an arrow function");
}
exports._ = _new_arrow_check;
"use strict";

function _non_iterable_rest() {
    throw new TypeError("Invalid attempt to destructure non-iterable instance.\nIn order to be iterable, non-array objects must have a [Symbol.iterator]() method.");
}
exports._ = _non_iterable_rest;
"use strict";

function _non_iterable_spread() {
    throw new TypeError("Invalid attempt to spread non-iterable instance.\nIn order to be iterable, non-array objects must have a [Symbol.iterator]() method.");
}
exports._ = _non_iterable_spread;
"use strict";

function _object_destructuring_empty(o) {
    if (o === null || o === void 0) throw new TypeError("Cannot destructure " + o);

    return o;
}
exports._ = _object_destructuring_empty;
"use strict";

var _define_property = require("./_define_property.cjs");

function _object_spread(target) {
    for (var i = 1; i < arguments.length; i++) {
        var source = arguments[i] != null ? arguments[i] : {};
        var ownKeys = Object.keys(source);

        if (typeof Object.getOwnPropertySymbols === "function") {
            ownKeys = ownKeys.concat(
                Object.getOwnPropertySymbols(source).filter(function(sym) {
                    return Object.getOwnPropertyDescriptor(source, sym).enumerable;
                })
            );
        }

        ownKeys.forEach(function(key) {
            _define_property._(target, key, source[key]);
        });
    }

    return target;
}
exports._ = _object_spread;
"use strict";

function ownKeys(object, enumerableOnly) {
    var keys = Object.keys(object);

    if (Object.getOwnPropertySymbols) {
        var symbols = Object.getOwnPropertySymbols(object);
        if (enumerableOnly) {
            symbols = symbols.filter(function(sym) {
                return Object.getOwnPropertyDescriptor(object, sym).enumerable;
            });
        }
        keys.push.apply(keys, symbols);
    }

    return keys;
}
function _object_spread_props(target, source) {
    source = source != null ? source : {};

    if (Object.getOwnPropertyDescriptors) Object.defineProperties(target, Object.getOwnPropertyDescriptors(source));
    else {
        ownKeys(Object(source)).forEach(function(key) {
            Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(source, key));
        });
    }

    return target;
}
exports._ = _object_spread_props;
"use strict";

var _object_without_properties_loose = require("./_object_without_properties_loose.cjs");

function _object_without_properties(source, excluded) {
    if (source == null) return {};

    var target = {}, sourceKeys, key, i;
    if (typeof Reflect !== "undefined" && Reflect.ownKeys) {
        sourceKeys = Reflect.ownKeys(Object(source));
        for (i = 0; i < sourceKeys.length; i++) {
            key = sourceKeys[i];
            if (excluded.indexOf(key) >= 0) continue;
            if (!Object.prototype.propertyIsEnumerable.call(source, key)) continue;
            target[key] = source[key];
        }

        return target;
    }

    target = _object_without_properties_loose._(source, excluded);
    if (Object.getOwnPropertySymbols) {
        sourceKeys = Object.getOwnPropertySymbols(source);
        for (i = 0; i < sourceKeys.length; i++) {
            key = sourceKeys[i];
            if (excluded.indexOf(key) >= 0) continue;
            if (!Object.prototype.propertyIsEnumerable.call(source, key)) continue;
            target[key] = source[key];
        }
    }

    return target;
}

exports._ = _object_without_properties;
"use strict";

function _object_without_properties_loose(source, excluded) {
    if (source == null) return {};

    var target = {}, sourceKeys = Object.getOwnPropertyNames(source), key, i;
    for (i = 0; i < sourceKeys.length; i++) {
        key = sourceKeys[i];
        if (excluded.indexOf(key) >= 0) continue;
        if (!Object.prototype.propertyIsEnumerable.call(source, key)) continue;
        target[key] = source[key];
    }

    return target;
}
exports._ = _object_without_properties_loose;
"use strict";

function _overload_yield(value, /** 0: await 1: delegate */ kind) {
    this.v = value;
    this.k = kind;
}

exports._ = _overload_yield;
"use strict";

var _assert_this_initialized = require("./_assert_this_initialized.cjs");
var _type_of = require("./_type_of.cjs");

function _possible_constructor_return(self, call) {
    if (call && (_type_of._(call) === "object" || typeof call === "function")) return call;

    return _assert_this_initialized._(self);
}
exports._ = _possible_constructor_return;
"use strict";

function _read_only_error(name) {
    throw new TypeError("\"" + name + "\" is read-only");
}
exports._ = _read_only_error;
"use strict";

var _define_property = require("./_define_property.cjs");
var _super_prop_base = require("./_super_prop_base.cjs");

function set(target, property, value, receiver) {
    if (typeof Reflect !== "undefined" && Reflect.set) set = Reflect.set;
    else {
        set = function set(target, property, value, receiver) {
            var base = _super_prop_base._(target, property);
            var desc;
            if (base) {
                desc = Object.getOwnPropertyDescriptor(base, property);
                if (desc.set) {
                    desc.set.call(receiver, value);

                    return true;
                } else if (!desc.writable) {
                    return false;
                }
            }
            desc = Object.getOwnPropertyDescriptor(receiver, property);
            if (desc) {
                if (!desc.writable) return false;
                desc.value = value;
                Object.defineProperty(receiver, property, desc);
            } else {
                _define_property._(receiver, property, value);
            }

            return true;
        };
    }

    return set(target, property, value, receiver);
}

function _set(target, property, value, receiver, isStrict) {
    var s = set(target, property, value, receiver || target);
    if (!s && isStrict) throw new Error("failed to set property");

    return value;
}
exports._ = _set;
"use strict";

function _set_prototype_of(o, p) {
    exports._ = _set_prototype_of = Object.setPrototypeOf || function setPrototypeOf(o, p) {
        o.__proto__ = p;

        return o;
    };

    return _set_prototype_of(o, p);
}
exports._ = _set_prototype_of;
"use strict";

function _skip_first_generator_next(fn) {
    return function() {
        var it = fn.apply(this, arguments);
        it.next();

        return it;
    };
}
exports._ = _skip_first_generator_next;
"use strict";

var _array_with_holes = require("./_array_with_holes.cjs");
var _iterable_to_array_limit = require("./_iterable_to_array_limit.cjs");
var _non_iterable_rest = require("./_non_iterable_rest.cjs");
var _unsupported_iterable_to_array = require("./_unsupported_iterable_to_array.cjs");

function _sliced_to_array(arr, i) {
    return _array_with_holes._(arr) || _iterable_to_array_limit._(arr, i) || _unsupported_iterable_to_array._(arr, i) || _non_iterable_rest._();
}
exports._ = _sliced_to_array;
"use strict";

var _array_with_holes = require("./_array_with_holes.cjs");
var _iterable_to_array_limit_loose = require("./_iterable_to_array_limit_loose.cjs");
var _non_iterable_rest = require("./_non_iterable_rest.cjs");
var _unsupported_iterable_to_array = require("./_unsupported_iterable_to_array.cjs");

function _sliced_to_array_loose(arr, i) {
    return _array_with_holes._(arr) || _iterable_to_array_limit_loose._(arr, i) || _unsupported_iterable_to_array._(arr, i) || _non_iterable_rest._();
}
exports._ = _sliced_to_array_loose;
"use strict";

var _get_prototype_of = require("./_get_prototype_of.cjs");

function _super_prop_base(object, property) {
    while (!Object.prototype.hasOwnProperty.call(object, property)) {
        object = _get_prototype_of._(object);
        if (object === null) break;
    }

    return object;
}
exports._ = _super_prop_base;
"use strict";

function _tagged_template_literal(strings, raw) {
    if (!raw) raw = strings.slice(0);

    return Object.freeze(Object.defineProperties(strings, { raw: { value: Object.freeze(raw) } }));
}
exports._ = _tagged_template_literal;
"use strict";

function _tagged_template_literal_loose(strings, raw) {
    if (!raw) raw = strings.slice(0);

    strings.raw = raw;

    return strings;
}
exports._ = _tagged_template_literal_loose;
"use strict";

function _throw(e) {
    throw e;
}
exports._ = _throw;
"use strict";

var _array_with_holes = require("./_array_with_holes.cjs");
var _iterable_to_array = require("./_iterable_to_array.cjs");
var _non_iterable_rest = require("./_non_iterable_rest.cjs");
var _unsupported_iterable_to_array = require("./_unsupported_iterable_to_array.cjs");

function _to_array(arr) {
    return _array_with_holes._(arr) || _iterable_to_array._(arr) || _unsupported_iterable_to_array._(arr) || _non_iterable_rest._();
}
exports._ = _to_array;
"use strict";

var _array_without_holes = require("./_array_without_holes.cjs");
var _iterable_to_array = require("./_iterable_to_array.cjs");
var _non_iterable_spread = require("./_non_iterable_spread.cjs");
var _unsupported_iterable_to_array = require("./_unsupported_iterable_to_array.cjs");

function _to_consumable_array(arr) {
    return _array_without_holes._(arr) || _iterable_to_array._(arr) || _unsupported_iterable_to_array._(arr) || _non_iterable_spread._();
}
exports._ = _to_consumable_array;
"use strict";

var _type_of = require("./_type_of.cjs");

function _to_primitive(input, hint) {
    if (_type_of._(input) !== "object" || input === null) return input;

    var prim = input[Symbol.toPrimitive];

    if (prim !== undefined) {
        var res = prim.call(input, hint || "default");
        if (_type_of._(res) !== "object") return res;
        throw new TypeError("@@toPrimitive must return a primitive value.");
    }

    return (hint === "string" ? String : Number)(input);
}
exports._ = _to_primitive;
"use strict";

var _to_primitive = require("./_to_primitive.cjs");
var _type_of = require("./_type_of.cjs");

function _to_property_key(arg) {
    var key = _to_primitive._(arg, "string");

    return _type_of._(key) === "symbol" ? key : String(key);
}
exports._ = _to_property_key;
"use strict";

function _ts_add_disposable_resource(env, value, async) {
    if (value !== null && value !== void 0) {
        if (typeof value !== "object" && typeof value !== "function") {
            throw new TypeError("Object expected.");
        }
        var dispose, inner;
        if (async) {
            if (!Symbol.asyncDispose) {
                throw new TypeError("Symbol.asyncDispose is not defined.");
            }
            dispose = value[Symbol.asyncDispose];
        }
        if (dispose === void 0) {
            if (!Symbol.dispose) {
                throw new TypeError("Symbol.dispose is not defined.");
            }
            dispose = value[Symbol.dispose];
            if (async) {
                inner = dispose;
            }
        }
        if (typeof dispose !== "function") {
            throw new TypeError("Object not disposable.");
        }
        if (inner) {
            dispose = function() {
                try {
                    inner.call(this);
                } catch (e) {
                    return Promise.reject(e);
                }
            };
        }
        env.stack.push({ value: value, dispose: dispose, async: async });
    } else if (async) {
        env.stack.push({ async: true });
    }
    return value;
}

exports._ = _ts_add_disposable_resource;
"use strict";

function _ts_decorate(decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") {
        r = Reflect.decorate(decorators, target, key, desc);
    } else {
        for (var i = decorators.length - 1; i >= 0; i--) {
            if (d = decorators[i]) {
                r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
            }
        }
    }
    return c > 3 && r && Object.defineProperty(target, key, r), r;
}

exports._ = _ts_decorate;
"use strict";

var _SuppressedError = typeof SuppressedError === "function" ? SuppressedError : function(error, suppressed, message) {
    var e = new Error(message);
    return e.name = "SuppressedError", e.error = error, e.suppressed = suppressed, e;
};

function _ts_dispose_resources(env) {
    function fail(e) {
        env.error = env.hasError ? new _SuppressedError(e, env.error, "An error was suppressed during disposal.") : e;
        env.hasError = true;
    }
    var r, s = 0;
    function next() {
        while (r = env.stack.pop()) {
            try {
                if (!r.async && s === 1) {
                    return s = 0, env.stack.push(r), Promise.resolve().then(next);
                }
                if (r.dispose) {
                    var result = r.dispose.call(r.value);
                    if (r.async) {
                        return s |= 2,
                            Promise.resolve(result).then(next, function(e) {
                                fail(e);
                                return next();
                            });
                    }
                } else {
                    s |= 1;
                }
            } catch (e) {
                fail(e);
            }
        }
        if (s === 1) {
            return env.hasError ? Promise.reject(env.error) : Promise.resolve();
        }
        if (env.hasError) {
            throw env.error;
        }
    }
    return next();
}

exports._ = _ts_dispose_resources;
"use strict";

function _ts_generator(thisArg, body) {
    var f, y, t, _ = { label: 0, sent: function () { if (t[0] & 1) throw t[1]; return t[1]; }, trys: [], ops: [] }, g = Object.create((typeof Iterator === "function" ? Iterator : Object).prototype), d = Object.defineProperty;
    return d(g, "next", { value: verb(0) }), d(g, "throw", { value: verb(1) }), d(g, "return", { value: verb(2) }), typeof Symbol === "function" && d(g, Symbol.iterator, { value: function () { return this; } }), g;
    function verb(n) { return function (v) { return step([n, v]); }; }
    function step(op) {
        if (f) throw new TypeError("Generator is already executing.");
        while (g && (g = 0, op[0] && (_ = 0)), _) try {
            if (f = 1, y && (t = op[0] & 2 ? y["return"] : op[0] ? y["throw"] || ((t = y["return"]) && t.call(y), 0) : y.next) && !(t = t.call(y, op[1])).done) return t;
            if (y = 0, t) op = [op[0] & 2, t.value];
            switch (op[0]) {
                case 0: case 1: t = op; break;
                case 4: _.label++; return { value: op[1], done: false };
                case 5: _.label++; y = op[1]; op = [0]; continue;
                case 7: op = _.ops.pop(); _.trys.pop(); continue;
                default:
                    if (!(t = _.trys, t = t.length > 0 && t[t.length - 1]) && (op[0] === 6 || op[0] === 2)) { _ = 0; continue; }
                    if (op[0] === 3 && (!t || (op[1] > t[0] && op[1] < t[3]))) { _.label = op[1]; break; }
                    if (op[0] === 6 && _.label < t[1]) { _.label = t[1]; t = op; break; }
                    if (t && _.label < t[2]) { _.label = t[2]; _.ops.push(op); break; }
                    if (t[2]) _.ops.pop();
                    _.trys.pop(); continue;
            }
            op = body.call(thisArg, _);
        } catch (e) { op = [6, e]; y = 0; } finally { f = t = 0; }
        if (op[0] & 5) throw op[1]; return { value: op[0] ? op[1] : void 0, done: true };
    }
}

exports._ = _ts_generator;
"use strict";

function _ts_metadata(metadataKey, metadataValue) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") {
        return Reflect.metadata(metadataKey, metadataValue);
    }
}

exports._ = _ts_metadata;
"use strict";

function _ts_param(paramIndex, decorator) {
    return function(target, key) {
        decorator(target, key, paramIndex);
    };
}

exports._ = _ts_param;
"use strict";

function _ts_rewrite_relative_import_extension(path, preserveJsx) {
    if (typeof path === "string" && /^\.\.?\//.test(path)) {
        return path.replace(/\.(tsx)$|((?:\.d)?)((?:\.[^./]+?)?)\.([cm]?)ts$/i, function(m, tsx, d, ext, cm) {
            return tsx ? preserveJsx ? ".jsx" : ".js" : d && (!ext || !cm) ? m : d + ext + "." + cm.toLowerCase() + "js";
        });
    }
    return path;
}

exports._ = _ts_rewrite_relative_import_extension;
"use strict";

function _ts_values(o) {
    var s = typeof Symbol === "function" && Symbol.iterator, m = s && o[s], i = 0;
    if (m) {
        return m.call(o);
    }
    if (o && typeof o.length === "number") {
        return {
            next: function() {
                if (o && i >= o.length) {
                    o = void 0;
                }
                return { value: o && o[i++], done: !o };
            }
        };
    }
    throw new TypeError(s ? "Object is not iterable." : "Symbol.iterator is not defined.");
}

exports._ = _ts_values;
"use strict";

function _type_of(obj) {
    "@swc/helpers - typeof";

    return obj && typeof Symbol !== "undefined" && obj.constructor === Symbol ? "symbol" : typeof obj;
}
exports._ = _type_of;
"use strict";

var _array_like_to_array = require("./_array_like_to_array.cjs");

function _unsupported_iterable_to_array(o, minLen) {
    if (!o) return;
    if (typeof o === "string") return _array_like_to_array._(o, minLen);

    var n = Object.prototype.toString.call(o).slice(8, -1);

    if (n === "Object" && o.constructor) n = o.constructor.name;
    if (n === "Map" || n === "Set") return Array.from(o);
    if (n === "Arguments" || /^(?:Ui|I)nt(?:8|16|32)(?:Clamped)?Array$/.test(n)) return _array_like_to_array._(o, minLen);
}
exports._ = _unsupported_iterable_to_array;
"use strict";

var _get = require("./_get.cjs");
var _set = require("./_set.cjs");

function _update(target, property, receiver, isStrict) {
    return {
        get _() {
            return _get._(target, property, receiver);
        },
        set _(value) {
            _set._(target, property, value, receiver, isStrict);
        }
    };
}
exports._ = _update;
"use strict";

/* @minVersion 7.22.0 */

function _using(stack, value, isAwait) {
    if (value === null || value === void 0) return value;
    if (Object(value) !== value) {
        throw new TypeError("using declarations can only be used with objects, functions, null, or undefined.");
    }
    // core-js-pure uses Symbol.for for polyfilling well-known symbols
    if (isAwait) {
        var dispose = value[Symbol.asyncDispose || Symbol.for("Symbol.asyncDispose")];
    }
    if (dispose === null || dispose === void 0) {
        dispose = value[Symbol.dispose || Symbol.for("Symbol.dispose")];
    }
    if (typeof dispose !== "function") {
        throw new TypeError(`Property [Symbol.dispose] is not a function.`);
    }
    stack.push({ v: value, d: dispose, a: isAwait });
    return value;
}

exports._ = _using;
"use strict";

function _using_ctx() {
    var _disposeSuppressedError = typeof SuppressedError === "function"
            // eslint-disable-next-line no-undef
            ? SuppressedError
            : (function(error, suppressed) {
                var err = new Error();
                err.name = "SuppressedError";
                err.suppressed = suppressed;
                err.error = error;
                return err;
            }),
        empty = {},
        stack = [];
    function using(isAwait, value) {
        if (value != null) {
            if (Object(value) !== value) {
                throw new TypeError("using declarations can only be used with objects, functions, null, or undefined.");
            }
            // core-js-pure uses Symbol.for for polyfilling well-known symbols
            if (isAwait) {
                var dispose = value[Symbol.asyncDispose || Symbol.for("Symbol.asyncDispose")];
            }
            if (dispose == null) {
                dispose = value[Symbol.dispose || Symbol.for("Symbol.dispose")];
            }
            if (typeof dispose !== "function") {
                throw new TypeError(`Property [Symbol.dispose] is not a function.`);
            }
            stack.push({ v: value, d: dispose, a: isAwait });
        } else if (isAwait) {
            // provide the nullish `value` as `d` for minification gain
            stack.push({ d: value, a: isAwait });
        }
        return value;
    }
    return {
        // error
        e: empty,
        // using
        u: using.bind(null, false),
        // await using
        a: using.bind(null, true),
        // dispose
        d: function() {
            var error = this.e;

            function next() {
                // eslint-disable-next-line @typescript-eslint/no-use-before-define
                while ((resource = stack.pop())) {
                    try {
                        var resource, disposalResult = resource.d && resource.d.call(resource.v);
                        if (resource.a) {
                            return Promise.resolve(disposalResult).then(next, err);
                        }
                    } catch (e) {
                        return err(e);
                    }
                }
                if (error !== empty) throw error;
            }

            function err(e) {
                error = error !== empty ? new _disposeSuppressedError(e, error) : e;

                return next();
            }

            return next();
        }
    };
}

exports._ = _using_ctx;
"use strict";

var _async_generator = require("./_async_generator.cjs");

function _wrap_async_generator(fn) {
    return function() {
        return new _async_generator._(fn.apply(this, arguments));
    };
}
exports._ = _wrap_async_generator;
"use strict";

var _construct = require("./_construct.cjs");
var _get_prototype_of = require("./_get_prototype_of.cjs");
var _is_native_function = require("./_is_native_function.cjs");
var _set_prototype_of = require("./_set_prototype_of.cjs");

function _wrap_native_super(Class) {
    var _cache = typeof Map === "function" ? new Map() : undefined;
    exports._ = _wrap_native_super = function(Class) {
        if (Class === null || !_is_native_function._(Class)) return Class;
        if (typeof Class !== "function") throw new TypeError("Super expression must either be null or a function");
        if (typeof _cache !== "undefined") {
            if (_cache.has(Class)) return _cache.get(Class);
            _cache.set(Class, Wrapper);
        }

        function Wrapper() {
            return _construct._(Class, arguments, _get_prototype_of._(this).constructor);
        }
        Wrapper.prototype = Object.create(Class.prototype, { constructor: { value: Wrapper, enumerable: false, writable: true, configurable: true } });

        return _set_prototype_of._(Wrapper, Class);
    };

    return _wrap_native_super(Class);
}
exports._ = _wrap_native_super;
"use strict";

var _inherits = require("./_inherits.cjs");
var _set_prototype_of = require("./_set_prototype_of.cjs");

function _wrap_reg_exp(re, groups, source) {
    exports._ = _wrap_reg_exp = function(re, groups, source) {
        return new WrappedRegExp(re, undefined, groups, source);
    };
    var _super = RegExp.prototype;
    var _groups = new WeakMap();
    var _sources = new WeakMap();
    var _native_source = Object.getOwnPropertyDescriptor(_super, "source").get;
    function WrappedRegExp(re, flags, groups, source) {
        var _re = new RegExp(re, flags);
        _groups.set(_re, groups || _groups.get(re));
        _sources.set(_re, source !== undefined ? source : _sources.get(re));
        return _set_prototype_of._(_re, WrappedRegExp.prototype);
    }
    _inherits._(WrappedRegExp, RegExp);
    Object.defineProperty(WrappedRegExp.prototype, "source", {
        configurable: true,
        get: function() {
            var source = _sources.get(this);
            if (source !== undefined) {
                try {
                    new RegExp(source, this.flags);
                    return source;
                } catch (_) {}
            }
            return _native_source.call(this);
        }
    });
    WrappedRegExp.prototype.exec = function(str) {
        var result = _super.exec.call(this, str);
        if (result) {
            result.groups = buildGroups(result, this);
            var indices = result.indices;
            if (indices) indices.groups = buildGroups(indices, this);
        }
        return result;
    };
    WrappedRegExp.prototype[Symbol.replace] = function(str, substitution) {
        if (typeof substitution === "string") {
            var groups = _groups.get(this);
            return _super[Symbol.replace].call(
                this,
                str,
                substitution.replace(/\$<([^>]+)>/g, function(_, name) {
                    var group = groups ? groups[name] : undefined;
                    if (group === undefined) return "";
                    return "$" + (Array.isArray(group) ? group.join("$") : group);
                })
            );
        }
        if (typeof substitution === "function") {
            var _this = this;
            return _super[Symbol.replace].call(this, str, function() {
                var args = arguments;
                if (typeof args[args.length - 1] !== "object") {
                    args = [].slice.call(args);
                    args.push(buildGroups(args, _this));
                }
                return substitution.apply(this, args);
            });
        }
        return _super[Symbol.replace].call(this, str, substitution);
    };
    function buildGroups(result, re) {
        var g = _groups.get(re);
        return Object.keys(g).reduce(function(groups, name) {
            var i = g[name];
            if (typeof i === "number") groups[name] = result[i];
            else {
                var k = 0;
                while (result[i[k]] === undefined && k + 1 < i.length) k++;
                groups[name] = result[i[k]];
            }
            return groups;
        }, Object.create(null));
    }
    return _wrap_reg_exp.apply(this, arguments);
}
exports._ = _wrap_reg_exp;
"use strict";

function _write_only_error(name) {
    throw new TypeError("\"" + name + "\" is write-only");
}
exports._ = _write_only_error;
"use strict";

/* This file is automatically generated and should not be manually edited. */
/* To modify this file, please run the `npm run build` command instead. */

0 && (module.exports = {
    /* @Annotate_start: the CommonJS named exports for ESM import in node */
    _apply_decorated_descriptor: null,
    _apply_decs_2203_r: null,
    _apply_decs_2311: null,
    _array_like_to_array: null,
    _array_with_holes: null,
    _array_without_holes: null,
    _assert_this_initialized: null,
    _async_generator: null,
    _async_generator_delegate: null,
    _async_iterator: null,
    _async_to_generator: null,
    _await_async_generator: null,
    _await_value: null,
    _call_super: null,
    _check_private_redeclaration: null,
    _class_apply_descriptor_destructure: null,
    _class_apply_descriptor_get: null,
    _class_apply_descriptor_set: null,
    _class_apply_descriptor_update: null,
    _class_call_check: null,
    _class_check_private_static_access: null,
    _class_check_private_static_field_descriptor: null,
    _class_extract_field_descriptor: null,
    _class_name_tdz_error: null,
    _class_private_field_destructure: null,
    _class_private_field_get: null,
    _class_private_field_init: null,
    _class_private_field_loose_base: null,
    _class_private_field_loose_key: null,
    _class_private_field_set: null,
    _class_private_field_update: null,
    _class_private_method_get: null,
    _class_private_method_init: null,
    _class_private_method_set: null,
    _class_static_private_field_destructure: null,
    _class_static_private_field_spec_get: null,
    _class_static_private_field_spec_set: null,
    _class_static_private_field_update: null,
    _class_static_private_method_get: null,
    _construct: null,
    _create_class: null,
    _create_for_of_iterator_helper_loose: null,
    _create_super: null,
    _decorate: null,
    _defaults: null,
    _define_enumerable_properties: null,
    _define_property: null,
    _dispose: null,
    _export_star: null,
    _extends: null,
    _get: null,
    _get_prototype_of: null,
    _identity: null,
    _inherits: null,
    _inherits_loose: null,
    _initializer_define_property: null,
    _initializer_warning_helper: null,
    _instanceof: null,
    _interop_require_default: null,
    _interop_require_wildcard: null,
    _is_native_function: null,
    _is_native_reflect_construct: null,
    _iterable_to_array: null,
    _iterable_to_array_limit: null,
    _iterable_to_array_limit_loose: null,
    _new_arrow_check: null,
    _non_iterable_rest: null,
    _non_iterable_spread: null,
    _object_destructuring_empty: null,
    _object_spread: null,
    _object_spread_props: null,
    _object_without_properties: null,
    _object_without_properties_loose: null,
    _overload_yield: null,
    _possible_constructor_return: null,
    _read_only_error: null,
    _set: null,
    _set_prototype_of: null,
    _skip_first_generator_next: null,
    _sliced_to_array: null,
    _sliced_to_array_loose: null,
    _super_prop_base: null,
    _tagged_template_literal: null,
    _tagged_template_literal_loose: null,
    _throw: null,
    _to_array: null,
    _to_consumable_array: null,
    _to_primitive: null,
    _to_property_key: null,
    _ts_add_disposable_resource: null,
    _ts_decorate: null,
    _ts_dispose_resources: null,
    _ts_generator: null,
    _ts_metadata: null,
    _ts_param: null,
    _ts_rewrite_relative_import_extension: null,
    _ts_values: null,
    _type_of: null,
    _unsupported_iterable_to_array: null,
    _update: null,
    _using: null,
    _using_ctx: null,
    _wrap_async_generator: null,
    _wrap_native_super: null,
    _wrap_reg_exp: null,
    _write_only_error: null
    /* @Annotate_end */
});
module.exports = {
    get _apply_decorated_descriptor() {
        return require("./_apply_decorated_descriptor.cjs")._;
    },
    get _apply_decs_2203_r() {
        return require("./_apply_decs_2203_r.cjs")._;
    },
    get _apply_decs_2311() {
        return require("./_apply_decs_2311.cjs")._;
    },
    get _array_like_to_array() {
        return require("./_array_like_to_array.cjs")._;
    },
    get _array_with_holes() {
        return require("./_array_with_holes.cjs")._;
    },
    get _array_without_holes() {
        return require("./_array_without_holes.cjs")._;
    },
    get _assert_this_initialized() {
        return require("./_assert_this_initialized.cjs")._;
    },
    get _async_generator() {
        return require("./_async_generator.cjs")._;
    },
    get _async_generator_delegate() {
        return require("./_async_generator_delegate.cjs")._;
    },
    get _async_iterator() {
        return require("./_async_iterator.cjs")._;
    },
    get _async_to_generator() {
        return require("./_async_to_generator.cjs")._;
    },
    get _await_async_generator() {
        return require("./_await_async_generator.cjs")._;
    },
    get _await_value() {
        return require("./_await_value.cjs")._;
    },
    get _call_super() {
        return require("./_call_super.cjs")._;
    },
    get _check_private_redeclaration() {
        return require("./_check_private_redeclaration.cjs")._;
    },
    get _class_apply_descriptor_destructure() {
        return require("./_class_apply_descriptor_destructure.cjs")._;
    },
    get _class_apply_descriptor_get() {
        return require("./_class_apply_descriptor_get.cjs")._;
    },
    get _class_apply_descriptor_set() {
        return require("./_class_apply_descriptor_set.cjs")._;
    },
    get _class_apply_descriptor_update() {
        return require("./_class_apply_descriptor_update.cjs")._;
    },
    get _class_call_check() {
        return require("./_class_call_check.cjs")._;
    },
    get _class_check_private_static_access() {
        return require("./_class_check_private_static_access.cjs")._;
    },
    get _class_check_private_static_field_descriptor() {
        return require("./_class_check_private_static_field_descriptor.cjs")._;
    },
    get _class_extract_field_descriptor() {
        return require("./_class_extract_field_descriptor.cjs")._;
    },
    get _class_name_tdz_error() {
        return require("./_class_name_tdz_error.cjs")._;
    },
    get _class_private_field_destructure() {
        return require("./_class_private_field_destructure.cjs")._;
    },
    get _class_private_field_get() {
        return require("./_class_private_field_get.cjs")._;
    },
    get _class_private_field_init() {
        return require("./_class_private_field_init.cjs")._;
    },
    get _class_private_field_loose_base() {
        return require("./_class_private_field_loose_base.cjs")._;
    },
    get _class_private_field_loose_key() {
        return require("./_class_private_field_loose_key.cjs")._;
    },
    get _class_private_field_set() {
        return require("./_class_private_field_set.cjs")._;
    },
    get _class_private_field_update() {
        return require("./_class_private_field_update.cjs")._;
    },
    get _class_private_method_get() {
        return require("./_class_private_method_get.cjs")._;
    },
    get _class_private_method_init() {
        return require("./_class_private_method_init.cjs")._;
    },
    get _class_private_method_set() {
        return require("./_class_private_method_set.cjs")._;
    },
    get _class_static_private_field_destructure() {
        return require("./_class_static_private_field_destructure.cjs")._;
    },
    get _class_static_private_field_spec_get() {
        return require("./_class_static_private_field_spec_get.cjs")._;
    },
    get _class_static_private_field_spec_set() {
        return require("./_class_static_private_field_spec_set.cjs")._;
    },
    get _class_static_private_field_update() {
        return require("./_class_static_private_field_update.cjs")._;
    },
    get _class_static_private_method_get() {
        return require("./_class_static_private_method_get.cjs")._;
    },
    get _construct() {
        return require("./_construct.cjs")._;
    },
    get _create_class() {
        return require("./_create_class.cjs")._;
    },
    get _create_for_of_iterator_helper_loose() {
        return require("./_create_for_of_iterator_helper_loose.cjs")._;
    },
    get _create_super() {
        return require("./_create_super.cjs")._;
    },
    get _decorate() {
        return require("./_decorate.cjs")._;
    },
    get _defaults() {
        return require("./_defaults.cjs")._;
    },
    get _define_enumerable_properties() {
        return require("./_define_enumerable_properties.cjs")._;
    },
    get _define_property() {
        return require("./_define_property.cjs")._;
    },
    get _dispose() {
        return require("./_dispose.cjs")._;
    },
    get _export_star() {
        return require("./_export_star.cjs")._;
    },
    get _extends() {
        return require("./_extends.cjs")._;
    },
    get _get() {
        return require("./_get.cjs")._;
    },
    get _get_prototype_of() {
        return require("./_get_prototype_of.cjs")._;
    },
    get _identity() {
        return require("./_identity.cjs")._;
    },
    get _inherits() {
        return require("./_inherits.cjs")._;
    },
    get _inherits_loose() {
        return require("./_inherits_loose.cjs")._;
    },
    get _initializer_define_property() {
        return require("./_initializer_define_property.cjs")._;
    },
    get _initializer_warning_helper() {
        return require("./_initializer_warning_helper.cjs")._;
    },
    get _instanceof() {
        return require("./_instanceof.cjs")._;
    },
    get _interop_require_default() {
        return require("./_interop_require_default.cjs")._;
    },
    get _interop_require_wildcard() {
        return require("./_interop_require_wildcard.cjs")._;
    },
    get _is_native_function() {
        return require("./_is_native_function.cjs")._;
    },
    get _is_native_reflect_construct() {
        return require("./_is_native_reflect_construct.cjs")._;
    },
    get _iterable_to_array() {
        return require("./_iterable_to_array.cjs")._;
    },
    get _iterable_to_array_limit() {
        return require("./_iterable_to_array_limit.cjs")._;
    },
    get _iterable_to_array_limit_loose() {
        return require("./_iterable_to_array_limit_loose.cjs")._;
    },
    get _new_arrow_check() {
        return require("./_new_arrow_check.cjs")._;
    },
    get _non_iterable_rest() {
        return require("./_non_iterable_rest.cjs")._;
    },
    get _non_iterable_spread() {
        return require("./_non_iterable_spread.cjs")._;
    },
    get _object_destructuring_empty() {
        return require("./_object_destructuring_empty.cjs")._;
    },
    get _object_spread() {
        return require("./_object_spread.cjs")._;
    },
    get _object_spread_props() {
        return require("./_object_spread_props.cjs")._;
    },
    get _object_without_properties() {
        return require("./_object_without_properties.cjs")._;
    },
    get _object_without_properties_loose() {
        return require("./_object_without_properties_loose.cjs")._;
    },
    get _overload_yield() {
        return require("./_overload_yield.cjs")._;
    },
    get _possible_constructor_return() {
        return require("./_possible_constructor_return.cjs")._;
    },
    get _read_only_error() {
        return require("./_read_only_error.cjs")._;
    },
    get _set() {
        return require("./_set.cjs")._;
    },
    get _set_prototype_of() {
        return require("./_set_prototype_of.cjs")._;
    },
    get _skip_first_generator_next() {
        return require("./_skip_first_generator_next.cjs")._;
    },
    get _sliced_to_array() {
        return require("./_sliced_to_array.cjs")._;
    },
    get _sliced_to_array_loose() {
        return require("./_sliced_to_array_loose.cjs")._;
    },
    get _super_prop_base() {
        return require("./_super_prop_base.cjs")._;
    },
    get _tagged_template_literal() {
        return require("./_tagged_template_literal.cjs")._;
    },
    get _tagged_template_literal_loose() {
        return require("./_tagged_template_literal_loose.cjs")._;
    },
    get _throw() {
        return require("./_throw.cjs")._;
    },
    get _to_array() {
        return require("./_to_array.cjs")._;
    },
    get _to_consumable_array() {
        return require("./_to_consumable_array.cjs")._;
    },
    get _to_primitive() {
        return require("./_to_primitive.cjs")._;
    },
    get _to_property_key() {
        return require("./_to_property_key.cjs")._;
    },
    get _ts_add_disposable_resource() {
        return require("./_ts_add_disposable_resource.cjs")._;
    },
    get _ts_decorate() {
        return require("./_ts_decorate.cjs")._;
    },
    get _ts_dispose_resources() {
        return require("./_ts_dispose_resources.cjs")._;
    },
    get _ts_generator() {
        return require("./_ts_generator.cjs")._;
    },
    get _ts_metadata() {
        return require("./_ts_metadata.cjs")._;
    },
    get _ts_param() {
        return require("./_ts_param.cjs")._;
    },
    get _ts_rewrite_relative_import_extension() {
        return require("./_ts_rewrite_relative_import_extension.cjs")._;
    },
    get _ts_values() {
        return require("./_ts_values.cjs")._;
    },
    get _type_of() {
        return require("./_type_of.cjs")._;
    },
    get _unsupported_iterable_to_array() {
        return require("./_unsupported_iterable_to_array.cjs")._;
    },
    get _update() {
        return require("./_update.cjs")._;
    },
    get _using() {
        return require("./_using.cjs")._;
    },
    get _using_ctx() {
        return require("./_using_ctx.cjs")._;
    },
    get _wrap_async_generator() {
        return require("./_wrap_async_generator.cjs")._;
    },
    get _wrap_native_super() {
        return require("./_wrap_native_super.cjs")._;
    },
    get _wrap_reg_exp() {
        return require("./_wrap_reg_exp.cjs")._;
    },
    get _write_only_error() {
        return require("./_write_only_error.cjs")._;
    }
};
