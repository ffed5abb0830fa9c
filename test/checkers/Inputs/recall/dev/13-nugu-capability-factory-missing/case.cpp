// Reduced from nugu-developers/nugu-linux at d1a6657b~1:
// examples/standalone/capability_collection.hh, capability_collection.cc, nugu_sdk_manager.cc
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>

class ICapabilityInterface {
public:
    virtual ~ICapabilityInterface() = default;
};
class ICapabilityListener {};

class ISystemHandler : public ICapabilityInterface {};
class IASRHandler : public ICapabilityInterface {
public:
    void setAttribute(const std::string& model_path) { (void)model_path; }
};
class ITTSHandler : public ICapabilityInterface {};
class IMicHandler : public ICapabilityInterface {
public:
    void enable() {}
};

class SystemAgent : public ISystemHandler {};
class ASRAgent : public IASRHandler {};
class TTSAgent : public ITTSHandler {};
class MicAgent : public IMicHandler {};

class SystemListener : public ICapabilityListener {};
class TTSListener : public ICapabilityListener {};
class MicListener : public ICapabilityListener {};
class SpeechOperator {
public:
    ICapabilityListener* getASRListener() { return &asr_listener; }
    void setASRHandler(IASRHandler* handler) { asr_handler = handler; }
private:
    ICapabilityListener asr_listener;
    IASRHandler* asr_handler = nullptr;
};

namespace CapabilityFactory {
template <typename T, typename V>
V* makeCapability(ICapabilityListener* listener) { (void)listener; return new T(); }
}

namespace {
template <typename T, typename V>
std::unique_ptr<V> makeCapability(ICapabilityListener* listener)
{
    return std::unique_ptr<V>(CapabilityFactory::makeCapability<T, V>(listener));
}
}

class CapabilityCollection {
public:
    CapabilityCollection();
    virtual ~CapabilityCollection() = default;

    template <typename T>
    T* getCapability(const std::string& capability_name)
    {
        return dynamic_cast<T*>(factories[capability_name]()); // RECALL: bug
    }

    SpeechOperator* getSpeechOperator() { return speech_operator.get(); }

private:
    void composeCapabilityFactory();

    std::unique_ptr<ISystemHandler> system_handler = nullptr;
    std::unique_ptr<IASRHandler> asr_handler = nullptr;
    std::unique_ptr<ITTSHandler> tts_handler = nullptr;
    std::unique_ptr<IMicHandler> mic_handler = nullptr;

    std::unique_ptr<SpeechOperator> speech_operator = nullptr;
    std::unique_ptr<SystemListener> system_listener = nullptr;
    std::unique_ptr<TTSListener> tts_listener = nullptr;
    std::unique_ptr<MicListener> mic_listener = nullptr;

    std::map<std::string, std::function<ICapabilityInterface*()>> factories;
};

CapabilityCollection::CapabilityCollection()
    : speech_operator(std::make_unique<SpeechOperator>())
{
    composeCapabilityFactory();
}

void CapabilityCollection::composeCapabilityFactory()
{
    factories.emplace("System", [&]() {
        if (!system_handler) {
            system_listener = std::make_unique<SystemListener>();
            system_handler = makeCapability<SystemAgent, ISystemHandler>(system_listener.get());
        }
        return system_handler.get();
    });
    factories.emplace("ASR", [&]() {
        if (!asr_handler) {
            asr_handler = makeCapability<ASRAgent, IASRHandler>(speech_operator->getASRListener());
            speech_operator->setASRHandler(asr_handler.get());
        }
        return asr_handler.get();
    });
    factories.emplace("TTS", [&]() {
        if (!tts_handler) {
            tts_listener = std::make_unique<TTSListener>();
            tts_handler = makeCapability<TTSAgent, ITTSHandler>(tts_listener.get());
        }
        return tts_handler.get();
    });
    factories.emplace("Mic", [&]() {
        if (!mic_handler) {
            mic_listener = std::make_unique<MicListener>();
            mic_handler = makeCapability<MicAgent, IMicHandler>(mic_listener.get());
            mic_handler->enable();
        }
        return mic_handler.get();
    });
}

class CapabilityBuilder {
public:
    CapabilityBuilder* add(ICapabilityInterface* cap) { (void)cap; return this; }
    bool construct() { return true; }
};

class NuguSDKManager {
public:
    void setup(const std::string& model_path)
    {
        capa_collection = std::make_unique<CapabilityCollection>();
        this->model_path = model_path;
        on_init_func = [this]() {
            (void)capa_collection->getSpeechOperator();
        };
        registerCapabilities();
    }
    void deInit()
    {
        capa_collection.reset();
        on_init_func = nullptr;
    }
    void onStatusChanged() // NetworkStatus::READY / CONNECTED
    {
        if (on_init_func)
            on_init_func(); // RECALL: safe
    }

private:
    void registerCapabilities()
    {
        auto asr_handler(capa_collection->getCapability<IASRHandler>("ASR"));
        auto tts_handler(capa_collection->getCapability<ITTSHandler>("TTS"));
        mic_handler = capa_collection->getCapability<IMicHandler>("Mic");

        asr_handler->setAttribute(model_path);

        builder.add(capa_collection->getCapability<ISystemHandler>("System"))
            ->add(tts_handler)
            ->add(asr_handler)
            ->add(mic_handler)
            ->construct();
    }

    std::unique_ptr<CapabilityCollection> capa_collection;
    IMicHandler* mic_handler = nullptr;
    CapabilityBuilder builder;
    std::string model_path;
    std::function<void()> on_init_func = nullptr;
};
